import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { useSuite } from '@dl/testing';
import { eventually, itShoots, openPage, shoot, signIn, signUpOwner } from './world';

const root = join(__dirname, '..', '..', '..');

// The Analytics page on the demo organization (demo:seed traffic), in Chromium against the real apps:
// click a country, a device and a referrer; the chips and the numbers follow; remove one.
describe('dashboard: Analytics (Chromium)', () => {
  const t = useSuite(async (own) => {
    const { w, context, page } = await openPage(own);
    const login = await signUpOwner(w, page, 'Northwind Outdoor');
    execFileSync(
      process.execPath,
      [join(root, 'tools/scripts/run.js'), join(root, 'tools/cli/main.ts'), 'demo:seed', login.organizationId, '--months', '1', '--links', '8', '--clicks-per-day', '80'],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DATABASE_URL: w.env.config.DATABASE_URL, REDIS_URL: w.env.config.REDIS_URL, REDIS_PREFIX: w.env.config.REDIS_PREFIX, LOG_LEVEL: 'silent' },
      },
    );
    return { w, context, page, login };
  }, 240_000);

  const total = async () => Number((await t.page.getByTestId('total-clicks').innerText()).replace(/\D/g, ''));
  /** The total once it differs from `before` (the filtered answer arrived). */
  const changedFrom = (before: number) => eventually(async () => ((await total()) !== before ? total() : undefined), 10_000);
  /** Clicks the first row of a list and waits for its chip and the new numbers. */
  const filterBy = async (list: string, chip: string): Promise<string> => {
    const before = await total();
    const row = t.page.getByTestId(`list-${list}`).getByRole('button').first();
    const label = await row.innerText();
    await row.click();
    await t.page.getByTestId(`chip-${chip}`).waitFor();
    await changedFrom(before);
    return label;
  };

  it('filters by a country, a device and a referrer as chips, and removes one', async () => {
    await t.page.goto('/app/analytics');
    await t.page.getByRole('heading', { name: 'Analytics' }).waitFor();
    await t.page.getByTestId('list-country').getByRole('button').first().waitFor();
    const all = await total();
    expect(all).toBeGreaterThan(0);
    await expect(t.page.getByTestId('first-run-checklist').count()).resolves.toBeLessThanOrEqual(1);

    const country = await filterBy('country', 'country');
    expect(await t.page.getByTestId('chip-country').innerText()).toContain(country);
    const byCountry = await total();
    expect(byCountry).toBeLessThan(all);

    await filterBy('device', 'device');
    const byBoth = await total();
    expect(byBoth).toBeLessThan(byCountry);

    await filterBy('referrerHost', 'referrerHost');
    const byThree = await total();
    expect(byThree).toBeLessThan(byBoth);
    expect(await t.page.getByRole('list', { name: 'Filters' }).getByRole('listitem').count()).toBe(3);
    expect(new URL(t.page.url()).searchParams.get('country')).toBeTruthy();

    await t.page.getByRole('button', { name: 'Remove the Device filter' }).click();
    await t.page.getByTestId('chip-device').waitFor({ state: 'detached' });
    expect(await changedFrom(byThree)).toBeGreaterThan(byThree);
    expect(await t.page.getByRole('list', { name: 'Filters' }).getByRole('listitem').count()).toBe(2);
    await t.page.getByTestId('live-panel').waitFor();
  }, 120_000);

  itShoots('renders light and dark at 1280 and 390 px (analytics-*.png, as in docs/screenshots)', async () => {
    for (const dark of [false, true]) {
      for (const width of [1280, 390]) {
        const ctx = await t.w.context({ width, height: width > 600 ? 900 : 844, dark });
        const p = await ctx.newPage();
        await signIn(p, t.login.email, t.login.password);
        await p.goto('/app/analytics?days=30');
        await p.getByTestId('list-country').getByRole('button').first().click();
        await p.getByTestId('chip-country').waitFor();
        await p.locator('.chart canvas').first().waitFor();
        await p.waitForTimeout(400);
        await shoot(p, `analytics-${dark ? 'dark' : 'light'}-${width}`, true);
        await ctx.close();
      }
    }
  }, 120_000);
});
