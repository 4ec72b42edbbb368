import { INestApplicationContext } from '@nestjs/common';
import { ClickPipeline, ClicksModule, ClickWriteRepository, hourStart } from '@dl/clicks';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { PrismaReadService, Tier } from '@dl/platform/db';
import { ClickFixtures, closeAll, KNOWN_IPS, rawClick, serviceEnv, TestEnv, USER_AGENTS } from '@dl/testing';
import { OrgAnalyticsQueryDto } from './analytics-filters.dto';
import { CubeRepository } from './cube.repository';
import { dailyAnswers, OrgAnalyticsService } from './org-analytics.service';

/**
 * click_cube_daily and click_cube_hourly (docs/analytics-storage.md, "Daily roll-up"): written by the
 * click pipeline (hours rolled after the batch, late clicks in it), read by the unfiltered view in any
 * zone. The same query filtered by every link of the organization selects the same clicks from the
 * hourly cube, which is exact below EXACT_MAX_CLICKS, so the two paths compare on one click set.
 */
describe('click_cube_daily', () => {
  let env: TestEnv, app: INestApplicationContext, service: OrgAnalyticsService, writer: ClickWriteRepository;
  let org: string, linkIds: string[];
  const now = new Date();
  const thisHour = hourStart(now.getTime());

  const ips = Object.values(KNOWN_IPS);
  const agents = [USER_AGENTS.iPhone, USER_AGENTS.windowsChrome, USER_AGENTS.iPad, USER_AGENTS.androidPhone, USER_AGENTS.macSafari, USER_AGENTS.googlebot];
  const referrers = [undefined, 'https://www.google.com/', 'https://news.example.org/post', undefined, 'https://t.co/x'];
  const utm: Array<Record<string, string>> = [{}, { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring' }, { utm_source: 'partner' }];

  /** `n` clicks over links, places, devices, referrers and UTM tags, at `at(i)`. */
  const clicks = (links: Array<{ id: string; organizationId: string }>, n: number, at: (i: number) => number): ClickCapturedJob[] =>
    Array.from({ length: n }, (_, i) =>
      rawClick(links[(i * 7) % links.length], {
        clickedAt: new Date(at(i)).toISOString(),
        // Ten visitors per address and agent: some click twice a day (a click, not a unique).
        ip: ips[i % ips.length],
        userAgent: agents[(i * 5) % agents.length],
        referrer: referrers[i % referrers.length],
        query: utm[i % utm.length],
      }),
    );

  const summary = (query: Partial<OrgAnalyticsQueryDto>) => service.summary(org, query as OrgAnalyticsQueryDto, now);
  /** The view's answer from the daily roll-up and from the hourly cube (a filter of every link), in UTC or `query.tz`. */
  const both = async (query: Partial<OrgAnalyticsQueryDto>) => [
    JSON.stringify(await summary({ tz: 'UTC', ...query })),
    JSON.stringify(await summary({ tz: 'UTC', ...query, linkId: linkIds })),
  ];
  /** Non-bot raw clicks of the organization per day in `tz` over [from, to], and their daily uniques (per link and UTC day). */
  const raw = async (from: string, to: string, tz: string) => {
    const days = await env.prisma.$queryRaw<Array<{ date: string; clicks: number }>>`
      SELECT to_char(clicked_at AT TIME ZONE ${tz}, 'YYYY-MM-DD') AS date, count(*)::int AS clicks FROM clicks
      WHERE organization_id = ${org}::uuid AND NOT is_bot
        AND clicked_at >= (${from}::date::timestamp AT TIME ZONE ${tz}) AND clicked_at < ((${to}::date + 1)::timestamp AT TIME ZONE ${tz})
      GROUP BY 1 ORDER BY 1`;
    const [{ uniques }] = await env.prisma.$queryRaw<Array<{ uniques: number }>>`
      SELECT count(DISTINCT (link_id, (clicked_at AT TIME ZONE 'UTC')::date, visitor_hash))::int AS uniques FROM clicks
      WHERE organization_id = ${org}::uuid AND NOT is_bot
        AND clicked_at >= (${from}::date::timestamp AT TIME ZONE 'UTC') AND clicked_at < ((${to}::date + 1)::timestamp AT TIME ZONE 'UTC')`;
    return { days, total: days.reduce((n, d) => n + d.clicks, 0), uniques };
  };
  const nonZero = (byDate: Array<{ date: string; clicks: number }>) => byDate.filter((d) => d.clicks > 0);

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([ClicksModule]));
    service = new OrgAnalyticsService(new CubeRepository(env.prisma, PrismaReadService.create(env.config, env.prisma)));
    writer = app.get(ClickWriteRepository);
    const fx = new ClickFixtures(env.prisma);
    org = (await fx.organization(Tier.PRO)).id;
    const other = (await fx.organization(Tier.PRO)).id;
    const links: Array<{ id: string; organizationId: string }> = [];
    for (let i = 0; i < 3; i++) links.push({ id: (await fx.link(org)).id, organizationId: org });
    linkIds = links.map((l) => l.id);
    const foreign = { id: (await fx.link(other)).id, organizationId: other };
    const pipeline = app.get(ClickPipeline);

    // Nothing rolled since April: the first clicks are cube rows of hours not rolled (one of
    // them before, a late click), and the batch after them rolls every whole hour up to now.
    await env.prisma.$executeRaw`UPDATE click_cube_state SET rolled_before = '2026-05-01T00:00:00Z'`;
    const start = Date.parse('2026-04-30T20:00:00Z');
    await pipeline.store([...clicks(links, 150, (i) => start + i * 9.7 * 3_600_000), ...clicks([foreign], 20, (i) => start + i * 3_600_000)]);
    await pipeline.store(clicks(links, 1, () => Date.parse('2026-06-08T23:30:00Z')));
    expect((await env.prisma.$queryRaw<Array<{ w: Date }>>`SELECT rolled_before AS w FROM click_cube_state`)[0].w.getTime()).toBeGreaterThanOrEqual(thisHour);
    // Late clicks (hours already rolled, one at 23:30 UTC: the next day in Berlin), and clicks of
    // this hour (not rolled yet).
    await pipeline.store([
      ...clicks(links, 40, (i) => Date.parse('2026-06-02T00:15:00Z') + i * 1.3 * 3_600_000),
      ...clicks(links, 1, () => Date.parse('2026-06-09T23:30:00Z')),
      ...clicks(links, 12, (i) => Math.min(now.getTime(), thisHour + i * 1000)),
    ]);
  }, 120_000);
  afterAll(() => closeAll(app, env));

  it('answers unfiltered queries in any zone from the roll-up; a filter from the hourly cube', () => {
    expect(dailyAnswers({})).toBe(true);
    expect(dailyAnswers({ tz: 'UTC', bots: 'include', linkId: [] })).toBe(true);
    expect(dailyAnswers({ tz: 'Europe/Berlin' })).toBe(true);
    expect(dailyAnswers({ country: 'DE' })).toBe(false);
    expect(dailyAnswers({ linkId: ['00000000-0000-4000-8000-000000000000'] })).toBe(false);
  });

  it('holds the raw clicks: totals, days and daily uniques, rolled hours, late clicks and this hour alike', async () => {
    for (const [from, to] of [
      ['2026-05-01', '2026-06-10'],
      ['2026-04-25', '2026-06-30'],
    ]) {
      const expected = await raw(from, to, 'UTC');
      const res = await summary({ from, to });
      expect({ from, total: res.totalClicks, uniques: res.uniqueClicks, days: nonZero(res.clicksByDate) }).toEqual({
        from,
        total: expected.total,
        uniques: expected.uniques,
        days: expected.days,
      });
    }
    const today = now.toISOString().slice(0, 10);
    const year = await summary({ days: 365 });
    const expected = await raw(year.clicksByDate[0].date, today, 'UTC');
    expect([year.totalClicks, year.uniqueClicks]).toEqual([expected.total, expected.uniques]);
    expect(year.clicksByDate.at(-1)).toEqual(expected.days.at(-1));
    expect(expected.days.at(-1)).toEqual({ date: today, clicks: 10 });
  });

  it('answers byte for byte as the hourly cube in UTC and other zones (whole, :30 and :45 offsets): lists, days, the previous window, bots', async () => {
    for (const tz of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Kiritimati', 'Africa/Abidjan']) {
      for (const query of [
        { from: '2026-06-01', to: '2026-06-10' },
        { from: '2026-05-01', to: '2026-06-10' },
        { from: '2026-05-01', to: '2026-06-30' },
        { from: '2026-05-15', to: '2026-07-20' },
        { from: '2026-06-09', to: '2026-06-09' },
        { from: '2026-06-01', to: '2026-06-10', bots: 'include' as const },
        { from: '2026-04-30', to: '2026-06-02', bots: 'include' as const },
        { days: 1 },
        { days: 30 },
        { days: 365 },
      ]) {
        const [daily, cube] = await both({ ...query, tz });
        expect([tz, query, daily]).toEqual([tz, query, cube]);
      }
    }
    const res = await summary({ from: '2026-06-01', to: '2026-06-10' });
    expect(res.previous.totalClicks).toBeGreaterThan(0);
    expect(res.topLinks).toHaveLength(3);
    expect(res.clicksByReferrer.map((r) => r.value).sort()).toEqual(['news.example.org', 't.co', 'www.google.com']);
    // Hours rolled and not, on both sides of a day in New York.
    const york = await summary({ days: 2, tz: 'America/New_York' });
    expect(york.totalClicks).toBe((await raw(york.clicksByDate[0].date, york.clicksByDate[1].date, 'America/New_York')).total);
  });

  it('counts the cube hours from rolled_before when it moved back since the last answer', async () => {
    const before = await summary({ days: 365 });
    const [{ w }] = await env.prisma.$queryRaw<Array<{ w: Date }>>`SELECT rolled_before AS w FROM click_cube_state`;
    expect(w.getTime()).toBe(thisHour);
    // An hour no click fell in, as if it were not rolled: its cube row is the tail's.
    const hour = new Date(thisHour - 3_600_000);
    const [link] = before.topLinks;
    await env.prisma.$executeRaw`UPDATE click_cube_state SET rolled_before = ${hour}`;
    await env.prisma.$executeRaw`
      INSERT INTO click_cube (organization_id, hour, link_id, is_bot, sample, clicks, visitors) VALUES (${org}::uuid, ${hour}, ${link.linkId}::uuid, false, 0, 5, 2)`;
    try {
      const after = await summary({ days: 365 });
      expect([after.totalClicks, after.uniqueClicks, after.topLinks.find((l) => l.linkId === link.linkId)?.clicks]).toEqual([
        before.totalClicks + 5,
        before.uniqueClicks + 2,
        link.clicks + 5,
      ]);
    } finally {
      await env.prisma.$executeRaw`DELETE FROM click_cube WHERE organization_id = ${org}::uuid AND hour = ${hour}`;
      await env.prisma.$executeRaw`UPDATE click_cube_state SET rolled_before = ${w}`;
    }
  });

  it('answers the same once every hour is rolled', async () => {
    const queries: Array<Partial<OrgAnalyticsQueryDto>> = [{ days: 365 }, { from: '2026-06-01', to: '2026-06-10', bots: 'include' }, { days: 2, tz: 'America/New_York' }];
    const before = await Promise.all(queries.map(summary));
    expect((await writer.rollCube(new Date(thisHour + 3_600_000))).getTime()).toBe(thisHour + 3_600_000);
    const after = await Promise.all(queries.map(summary));
    expect(after).toEqual(before);
  });

  it('counts days in another zone from the hourly totals: 23:30 UTC is the next day in Berlin', async () => {
    const [utc, berlin] = await Promise.all([
      summary({ from: '2026-06-08', to: '2026-06-10' }),
      summary({ from: '2026-06-08', to: '2026-06-10', tz: 'Europe/Berlin' }),
    ]);
    expect(nonZero(utc.clicksByDate)).toEqual((await raw('2026-06-08', '2026-06-10', 'UTC')).days);
    expect(nonZero(berlin.clicksByDate)).toEqual((await raw('2026-06-08', '2026-06-10', 'Europe/Berlin')).days);
    expect(berlin.totalClicks).toBe((await raw('2026-06-08', '2026-06-10', 'Europe/Berlin')).total);
    expect(utc.clicksByDate.map((d) => d.date)).toEqual(berlin.clicksByDate.map((d) => d.date));
  });
});
