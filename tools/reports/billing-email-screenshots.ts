/**
 * The billing emails to Owners (a failed payment, a downgrade) rendered by Debian's Chromium through
 * playwright-core in light and dark mode at 390 px and 1280 px, for a visual check of the HTML.
 * Not a test: CI machines may lack Chromium.
 *   node tools/scripts/run.js tools/reports/billing-email-screenshots.ts [out-dir]   (default $TMPDIR/billing-email-screenshots)
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { renderDowngradeEmail, renderPaymentFailedEmail } from '@dl/billing';

const organization = 'Northwind Outfitters & <Co>';
const billingUrl = 'https://app.example.com/app/billing';
const emails = {
  'payment-failed': renderPaymentFailedEmail({ organization, tier: 'PRO', graceEndsAt: new Date('2026-12-06T12:00:00Z'), billingUrl }),
  downgraded: renderDowngradeEmail({ organization, from: 'PRO', to: 'FREE', limits: { links: 1000, requestsPerMinute: 10 }, billingUrl }),
};

/** Every email in both schemes at both widths. */
function shotsIn(out: string) {
  return Object.entries(emails).flatMap(([name, email]) =>
    (['light', 'dark'] as const).flatMap((colorScheme) =>
      [390, 1280].map((width) => ({ html: email.html, colorScheme, width, file: join(out, `billing-email-${name}-${colorScheme}-${width}.png`) })),
    ),
  );
}

async function main() {
  const out = resolve(process.argv[2] ?? join(tmpdir(), 'billing-email-screenshots'));
  mkdirSync(out, { recursive: true });
  const shots = shotsIn(out);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const shot of shots) {
      const page = await browser.newPage({ viewport: { width: shot.width, height: 760 }, colorScheme: shot.colorScheme });
      await page.setContent(shot.html);
      await page.screenshot({ path: shot.file, fullPage: true });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(`${JSON.stringify({ pngs: shots.map((s) => s.file) })}\n`);
}

void main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
