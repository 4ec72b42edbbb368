/**
 * Screenshots of the monthly report's conversions section (decisions §23) in light and dark, at
 * 1280 px and 390 px, into docs/screenshots/: the current month's live report of an organization
 * with leads, sales in two currencies and a refund.
 *
 *   node tools/scripts/run.js apps/dashboard/test/report-conversions-screens.ts
 */
import { join } from 'node:path';
import { seedConversions } from './conversions-seed';
import { screenshotScript } from './world';

const out = join(__dirname, '..', '..', '..', 'docs', 'screenshots');

screenshotScript(
  'report conversions screenshots',
  out,
  (w, _page, { email }) => seedConversions(w, email),
  async ({ page: p, name }) => {
    await p.goto('/app/reports');
    const section = p.getByRole('region', { name: 'Conversions' });
    await section.getByRole('region', { name: 'Revenue in USD' }).waitFor();
    await p.locator('.loading').first().waitFor({ state: 'detached' });
    await p.waitForTimeout(400);
    // The page, cut to the section (an element screenshot would scroll it under the sticky header).
    const box = await section.boundingBox();
    if (!box) throw new Error('no conversions section');
    await p.screenshot({ path: name('report-conversions'), fullPage: true, clip: box });
  },
);
