/**
 * `npm run screenshots:dashboard`: the main pages in light and dark, at 1280 px and 390 px,
 * written to docs/screenshots/. Boots the same world as the browser tests (a fresh test
 * database, api + redirect + worker, Chromium), signs up an organization and seeds two
 * months of traffic with `demo:seed`, then takes the links list, a link page with its
 * charts, the create form (with an A/B test and a redirect rule), the domains page, the
 * monthly report, and the members (a pending invitation), webhooks (one endpoint) and events pages.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { accountOf, openSection, screenshotScript } from './world';

const root = join(__dirname, '..', '..', '..');
const out = join(root, 'docs', 'screenshots');

screenshotScript(
  'screenshots',
  out,
  async (w, page, { email }) => {
    const { userId, organizationId } = await accountOf(w, email);
    // Event analytics is a paid feature: the events page shows its charts and list on BUSINESS.
    await w.env.prisma.organization.update({ where: { id: organizationId }, data: { tier: 'BUSINESS' } });
    const upgradedAt = Date.now();
    execFileSync(
      process.execPath,
      [join(root, 'tools/scripts/run.js'), join(root, 'tools/cli/main.ts'), 'demo:seed', organizationId, '--months', '2', '--links', '12', '--clicks-per-day', '60'],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DATABASE_URL: w.env.config.DATABASE_URL, REDIS_URL: w.env.config.REDIS_URL, REDIS_PREFIX: w.env.config.REDIS_PREFIX, LOG_LEVEL: 'silent' },
      },
    );
    // A branded domain waiting for its DNS record (the Domains page shows the TXT record to add).
    await page.goto('/app/domains');
    await page.getByLabel('Domain name').fill('go.northwind.example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('article', { name: 'go.northwind.example' }).waitFor();
    // A pending invitation (Members) and one endpoint (Webhooks).
    await page.goto('/app/members');
    await page.getByLabel('Email').fill('ana@northwind.example');
    await page.getByRole('button', { name: 'Add or invite' }).click();
    await page.getByTestId('invitations').waitFor();
    await page.goto('/app/webhooks');
    await page.getByLabel('Endpoint URL').fill('https://hooks.northwind.example/deeplink');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('article', { name: 'Webhook https://hooks.northwind.example/deeplink' }).waitFor();
    // The sessions cached before the upgrade (30 s in Redis) have expired before the screenshots.
    await new Promise((r) => setTimeout(r, Math.max(0, upgradedAt + 31_000 - Date.now())));
    const top = await w.env.prisma.link.findFirstOrThrow({ where: { organizationId }, orderBy: { clickCount: 'desc' }, select: { id: true } });
    const reports = await w.env.prisma.$queryRawUnsafe<Array<{ p: string }>>(`SELECT to_char(date_trunc('month', now() - interval '1 month'), 'YYYY-MM') AS p`);
    const lastMonth = reports[0].p;
    return { top, lastMonth };
  },
  async ({ page: p, name }, { top, lastMonth }) => {
    await p.locator('.table-row').first().waitFor();
    await p.screenshot({ path: name('links') });
    await p.goto(`/app/links/${top.id}?days=30`);
    await p.locator('.chart canvas').first().waitFor();
    await p.getByTestId('click-list').waitFor();
    await p.waitForTimeout(300);
    await p.screenshot({ path: name('link'), fullPage: true });
    await p.goto('/app/links/new');
    await p.getByLabel('Destination URL').fill('https://northwind.example/spring?ref=home');
    await p.getByLabel('Title', { exact: true }).fill('Spring collection');
    for (const legend of ['UTM builder', 'Social preview (Open Graph)', 'A/B test and redirect rules', 'Access and lifetime']) await openSection(p, legend);
    await p.getByLabel('utm_source').fill('newsletter');
    await p.getByLabel('utm_medium').fill('email');
    await p.getByLabel('utm_campaign').fill('spring_2026');
    await p.getByLabel('OG title').fill('Spring collection: new trail gear');
    await p.getByLabel('OG description').fill('Light jackets, packs and boots for the season.');
    await p.getByRole('button', { name: 'Add an A/B test' }).click();
    await p.getByLabel('Variant 1 URL').fill('https://northwind.example/spring-a');
    await p.getByLabel('Variant 2 URL').fill('https://northwind.example/spring-b');
    await p.getByRole('button', { name: 'Add a rule' }).click();
    await p.getByLabel('Rule 1 URL').fill('https://northwind.example/fr/printemps');
    await p.getByRole('group', { name: 'Rule 1' }).getByLabel('Countries').fill('FR, BE');
    await p.getByLabel('Click limit').fill('10000');
    await p.evaluate('document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)');
    await p.screenshot({ path: name('create'), fullPage: true });
    await p.goto('/app/domains');
    await p.getByTestId('txt-value').waitFor();
    await p.screenshot({ path: name('domains'), fullPage: true });
    await p.goto(`/app/reports/${lastMonth}`);
    await p.getByRole('heading', { name: 'Clicks per day' }).waitFor();
    await p.locator('.chart canvas').first().waitFor();
    await p.waitForTimeout(300);
    await p.screenshot({ path: name('report'), fullPage: true });
    for (const section of ['members', 'webhooks', 'events']) {
      await p.goto(`/app/${section}`);
      await p.locator('.loading').first().waitFor({ state: 'detached' });
      await p.waitForTimeout(300);
      await p.screenshot({ path: name(section), fullPage: true });
    }
  },
);
