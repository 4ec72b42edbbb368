/**
 * Screenshots of the conversions pages (decisions §23) in light and dark, at 1280 px and 390 px,
 * into docs/screenshots/: the Conversions page, a customer's timeline, the Integrations page and
 * a link page with its conversions. Leads and sales go through the tracking API.
 *
 *   node tools/scripts/run.js apps/dashboard/test/conversions-screens.ts
 */
import { join } from 'node:path';
import { seedConversions } from './conversions-seed';
import { screenshotScript } from './world';

const root = join(__dirname, '..', '..', '..');
const out = join(root, 'docs', 'screenshots');

screenshotScript(
  'conversions screenshots',
  out,
  (w, _page, { email }) => seedConversions(w, email),
  async ({ page: p, name, width }, { links, firstCustomer }) => {
    const settle = async () => {
      await p.locator('.loading').first().waitFor({ state: 'detached' });
      await p.waitForTimeout(400);
    };
    await p.goto('/app/conversions');
    await p.getByRole('heading', { name: 'Revenue by currency' }).waitFor();
    await settle();
    await p.screenshot({ path: name('conversions'), fullPage: true });
    await p.goto(`/app/conversions/customers/${firstCustomer}`);
    await p.getByRole('heading', { name: 'Timeline' }).waitFor();
    await settle();
    await p.screenshot({ path: name('customer'), fullPage: true });
    await p.goto('/app/integrations');
    await p.getByRole('heading', { name: 'Stripe' }).waitFor();
    await settle();
    await p.screenshot({ path: name('integrations'), fullPage: true });
    await p.goto(`/app/links/${links[0].id}?days=30`);
    await p.getByTestId('link-sales').waitFor();
    await settle();
    // At 390 px the link's conversions are below the fold: at the top of the shot, under the sticky top bar.
    if (width < 600) await p.locator('[aria-label="Conversions"]').evaluate((e) => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 80));
    await p.screenshot({ path: name('link-conversions') });
  },
);
