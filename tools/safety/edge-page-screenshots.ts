/**
 * Screenshots of what people see of trust and safety (decisions §22): the edge's warning, disabled
 * and report pages and the flagged-links email to Owners and Admins, in light and dark mode at
 * 390 px and 1280 px, into docs/screenshots/. The pages are the edge's own answers (buildAnswer)
 * under their CSP, the email the worker's own rendering; Debian's Chromium through playwright-core.
 *   node tools/scripts/run.js tools/safety/edge-page-screenshots.ts
 */
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildAnswer, RedirectLinkSnapshot } from '@dl/redirect';
import { renderFlaggedLinksEmail } from '@dl/safety';

const link = { shortCode: 'Xk3p9Qa', safetyStatus: 'suspicious', safetyReason: 'look-alike of paypal.com' } as RedirectLinkSnapshot;
const flagged = renderFlaggedLinksEmail({
  organization: 'Northwind Outfitters',
  links: [
    { shortUrl: 'https://dl.ink/bfsale', reason: 'blocklisted domain' },
    { shortUrl: 'https://go.northwind.example/promo', reason: 'malware' },
    { shortUrl: 'https://dl.ink/gifts26', reason: 'phishing' },
  ],
  suspended: true,
  linksUrl: 'https://app.example.com/app/links',
});
const pages = {
  warning: buildAnswer({ kind: 'warning', link, destination: 'https://xn--pypal-4ve.com/signin?session=8f2a', query: 'utm_source=mail' }),
  disabled: buildAnswer({ kind: 'disabled', reason: 'malware' }),
  report: buildAnswer({ kind: 'report', shortCode: link.shortCode, error: null }),
  // Named as the account emails are (apps/dashboard/test/email-screenshots.ts): email-<kind>-<theme>-<width>.png.
  'email-flagged': { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: flagged.html },
};

async function main() {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const [name, answer] of Object.entries(pages)) {
      for (const scheme of ['light', 'dark'] as const) {
        for (const width of [390, 1280]) {
          const page = await browser.newPage({ viewport: { width, height: width < 500 ? 760 : 720 }, colorScheme: scheme });
          await page.route('https://edge.test/**', (route) =>
            route.fulfill({ status: answer.status, headers: answer.headers, body: answer.body }),
          );
          await page.goto('https://edge.test/Xk3p9Qa');
          const email = name.startsWith('email-');
          const file = join('docs', 'screenshots', `${email ? name : `edge-${name}`}-${scheme}-${width}.png`);
          await page.screenshot({ path: file, fullPage: email });
          process.stdout.write(`${file}\n`);
          await page.close();
        }
      }
    }
  } finally {
    await browser.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
