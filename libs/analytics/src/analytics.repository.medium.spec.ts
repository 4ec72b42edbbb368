import { PrismaReadService, sqlState } from '@dl/platform/db';
import { ClickFixtures, createTestEnv, rejectionOf, TestEnv } from '@dl/testing';
import { AnalyticsRepository } from './analytics.repository';

describe(AnalyticsRepository.name, () => {
  let env: TestEnv;
  let repo: AnalyticsRepository;
  let fx: ClickFixtures;
  let acme: string;
  let other: string;
  let a: { id: string; shortCode: string; organizationId: string };
  let b: { id: string; shortCode: string; organizationId: string };
  let project: string;

  /** One rollup row as it is, day or month row (no month row is derived: the test says which rows exist). */
  const row = (link: { id: string; organizationId: string }, day: string, dimension: string, value: string, clicks: number) =>
    env.prisma.$executeRaw`
      INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      VALUES (${link.organizationId}::uuid, ${link.id}::uuid, ${day}::date, ${dimension}, ${value}, ${clicks})`;

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new AnalyticsRepository(env.prisma, PrismaReadService.create(env.config, env.prisma));
    fx = new ClickFixtures(env.prisma);
    [acme, other] = [(await fx.organization()).id, (await fx.organization()).id];
    project = (await fx.project(acme)).id;
    a = { ...(await fx.link(acme, { title: 'A', projectId: project })), organizationId: acme };
    b = { ...(await fx.link(acme, { title: 'B' })), organizationId: acme };
    // Window 2030-01-25..2030-03-05: January and March from day rows, February from its month row.
    await row(a, '2030-01-20', 'country', 'GB', 100); // before the window
    await row(a, '2030-01-26', 'country', 'GB', 2);
    await row(a, '2030-02-10', 'country', 'GB', 1000); // a day row inside a whole month: the month row counts instead
    await row(a, '2030-02-01', 'month:country', 'GB', 5);
    await row(a, '2030-03-04', 'country', 'GB', 1);
    await row(b, '2030-03-04', 'country', 'SE', 4);
    await row(a, '2030-02-14', 'source', 'Direct', 3); // a daily-only dimension: its day rows across February
    await row(a, '2030-01-26', 'total', '', 2);
    await row(a, '2030-03-04', 'total', '', 1);
    await row(b, '2030-03-04', 'total', '', 4);
  });
  afterAll(() => env?.teardown());

  const w = { from: '2030-01-25', to: '2030-03-05' };

  it('counts dimensions from day rows around the months wholly inside the window and month rows within', async () => {
    const counts = await repo.dimensionCounts(acme, {}, w, ['country', 'source']);
    expect(counts.sort((x, y) => x.value.localeCompare(y.value))).toEqual([
      { dimension: 'source', value: 'Direct', clicks: 3 },
      { dimension: 'country', value: 'GB', clicks: 8 },
      { dimension: 'country', value: 'SE', clicks: 4 },
    ]);
    expect(await repo.dimensionCounts(acme, { linkId: b.id }, w, ['country'])).toEqual([{ dimension: 'country', value: 'SE', clicks: 4 }]);
    expect(await repo.dimensionCounts(acme, { projectId: project }, w, ['country'])).toEqual([{ dimension: 'country', value: 'GB', clicks: 8 }]);
  });

  it('daily totals, top links and link counts of the organization', async () => {
    expect((await repo.dailyTotals(acme, {}, w)).sort((x, y) => x.day.localeCompare(y.day))).toEqual([
      { day: '2030-01-26', clicks: 2 },
      { day: '2030-03-04', clicks: 5 },
    ]);
    expect(await repo.topLinks(acme, w, 10)).toEqual([
      { id: b.id, shortCode: b.shortCode, title: 'B', clicks: 4 },
      { id: a.id, shortCode: a.shortCode, title: 'A', clicks: 3 },
    ]);
    expect(await repo.linkCounts(acme, new Date())).toEqual({ total: 2, active: 2 });
    expect(await repo.linkExists(acme, a.id)).toBe(true);
    expect(await repo.projectExists(acme, project)).toBe(true);
    expect(await repo.linkControls(acme, a.id)).toEqual({ variants: null, hasRules: false });
  });

  it('distinct visitors over the window, and the click list (bots left out) and export pages (bots in)', async () => {
    for (const [day, hash] of [['2030-01-26', 'v1'], ['2030-03-04', 'v1'], ['2030-03-04', 'v2'], ['2030-01-10', 'v3']]) {
      await env.prisma.$executeRaw`INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash) VALUES (${acme}::uuid, ${a.id}::uuid, ${day}::date, ${hash})`;
    }
    expect(await repo.distinctVisitors(acme, { linkId: a.id }, w)).toBe(2);

    const t = Date.now();
    const human1 = await fx.click(a, { clickedAt: new Date(t - 3000), countryCode: 'GB' });
    const bot = await fx.click(a, { clickedAt: new Date(t - 2000), isBot: true });
    const human2 = await fx.click(a, { clickedAt: new Date(t - 1000) });
    expect((await repo.recentClicks(acme, a.id, 10)).map((c) => c.id)).toEqual([human2.id, human1.id]);
    expect((await repo.recentClicks(acme, a.id, 10))[1]).toMatchObject({ linkId: a.id, countryCode: 'GB', clickedAt: human1.clickedAt });
    const first = await repo.clickExportPage(acme, a.id, new Date(t - 10_000), null, 2);
    expect(first.map((c) => [c.id, c.isBot])).toEqual([[human1.id, false], [bot.id, true]]);
    const next = await repo.clickExportPage(acme, a.id, new Date(t - 10_000), { clickedAt: first[1].clickedAt, id: first[1].id }, 2);
    expect(next.map((c) => c.id)).toEqual([human2.id]);
  });

  it("another organization's links, projects and clicks answer as missing", async () => {
    expect(await repo.linkExists(other, a.id)).toBe(false);
    expect(await repo.projectExists(other, project)).toBe(false);
    expect(await repo.linkControls(other, a.id)).toBeNull();
    expect(await repo.dimensionCounts(other, { linkId: a.id }, w, ['country'])).toEqual([]);
    expect(await repo.dailyTotals(other, {}, w)).toEqual([]);
    expect(await repo.topLinks(other, w, 10)).toEqual([]);
    expect(await repo.distinctVisitors(other, { linkId: a.id }, w)).toBe(0);
    expect(await repo.recentClicks(other, a.id, 10)).toEqual([]);
    expect(await repo.clickExportPage(other, a.id, new Date(0), null, 10)).toEqual([]);
  });

  it('a link id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(repo.dailyTotals(acme, { linkId: 'abc' }, w)))).toBe('22P02');
  });
});
