/**
 * `node tools/scripts/run.js apps/dashboard/test/enterprise-screenshots.ts [outDir]`: the API keys
 * page (a scoped, expiring key), the audit log (entries, the integrity check) and SCIM tokens in light and
 * dark, at 1280 px and 390 px, written to `outDir` (default var/screenshots/enterprise) to be
 * looked at. Boots the same world as the browser tests.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTemplateDatabase } from '@dl/testing';
import { signIn, signUp, startWorld } from './world';

const root = join(__dirname, '..', '..', '..');
const out = process.argv[2] ?? join(root, 'var', 'screenshots', 'enterprise');

async function main(): Promise<void> {
  process.env.TEST_DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/postgres';
  await ensureTemplateDatabase();
  const w = await startWorld();
  try {
    mkdirSync(out, { recursive: true });
    const setup = await w.context();
    const page = await setup.newPage();
    const { email, password } = await signUp(page, 'Northwind Outdoor');
    await page.goto('/app/keys');
    await page.getByLabel('Name', { exact: true }).fill('CI pipeline');
    await page.getByLabel('Expires').selectOption({ label: 'In 90 days' });
    await page.getByLabel('Only these scopes').check();
    await page.getByLabel('links:write').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Your new API key').waitFor();
    await page.goto('/app/projects');
    await setup.close();
    for (const dark of [false, true]) {
      for (const width of [1280, 390]) {
        const ctx = await w.context({ width, height: width > 600 ? 900 : 844, dark });
        const p = await ctx.newPage();
        await signIn(p, email, password);
        const name = (what: string) => join(out, `${what}-${dark ? 'dark' : 'light'}-${width}.png`);
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
        await ctx.close();
      }
    }
  } finally {
    await w.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
