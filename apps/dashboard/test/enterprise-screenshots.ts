/**
 * `node tools/scripts/run.js apps/dashboard/test/enterprise-screenshots.ts [outDir]`: the API keys
 * page (a scoped, expiring key), the audit log (entries, the integrity check) and SCIM tokens in light and
 * dark, at 1280 px and 390 px, written to `outDir` (default var/screenshots/enterprise) to be
 * looked at. Boots the same world as the browser tests.
 */
import { join } from 'node:path';
import { screenshotScript } from './world';

const root = join(__dirname, '..', '..', '..');
const out = process.argv[2] ?? join(root, 'var', 'screenshots', 'enterprise');

screenshotScript(
  'enterprise screenshots',
  out,
  async (_w, page) => {
    await page.goto('/app/keys');
    await page.getByLabel('Name', { exact: true }).fill('CI pipeline');
    await page.getByLabel('Expires').selectOption({ label: 'In 90 days' });
    await page.getByLabel('Only these scopes').check();
    await page.getByLabel('links:write').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Your new API key').waitFor();
    await page.goto('/app/projects');
  },
  async ({ page: p, name }) => {
    await p.goto('/app/keys');
    await p.locator('table').first().waitFor();
    await p.screenshot({ path: name('keys'), fullPage: true });
    await p.goto('/app/audit-log');
    await p.getByTestId('audit-entries').waitFor();
    await p.getByRole('button', { name: 'Verify integrity' }).click();
    await p.getByTestId('audit-verify').waitFor();
    await p.screenshot({ path: name('audit-log'), fullPage: true });
    await p.goto('/app/scim');
    await p.getByRole('button', { name: 'New SCIM token' }).click();
    await p.getByText('Your new SCIM token').waitFor();
    await p.screenshot({ path: name('scim'), fullPage: true });
  },
);
