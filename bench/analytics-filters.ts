/**
 * The organization-wide view over a seeded click cube, unfiltered and with two filters (docs/performance.md).
 *   node tools/scripts/run.js bench/analytics-filters.ts [--clicks 10000000] [--days 365] [--seconds 8] [--fresh] [--only <text>]
 * --only: the queries whose name contains the text. The seeded database is kept between runs (--fresh rebuilds it); its
 * clicks end at the hour it was seeded, so rebuild it a day later. Migrations added since are applied before a run.
 */
import { performance } from 'node:perf_hooks';
import { PrismaService, Tier } from '@dl/platform/db';
import { ClickFixtures } from '@dl/testing';
import { arg, argText, cityColumns, log, monthRollups, print, runKeptBench, vacuumAnalyze, wrkApiPaths } from './kit';

const LINKS = 200;
/** The seeded organization's name; SEEDING until its clicks are all written. */
const ORG_NAME = 'Bench Filters Co';
const SEEDING = `${ORG_NAME} (seeding)`;

const [clicks, days, seconds] = [arg('clicks', 10_000_000), arg('days', 365), arg('seconds', 8)];

runKeptBench(`dl_bench_analytics_filters_${clicks}_${days}`, { RATE_LIMIT_ENABLED: 'false' }, async (config, prisma) => {
  const fx = new ClickFixtures(prisma);
  const [org] = await prisma.$queryRaw<Array<{ id: string; name: string }>>`
    SELECT id::text AS id, name FROM organizations WHERE name IN (${ORG_NAME}, ${SEEDING})`;
  if (org?.name === SEEDING) throw new Error('the kept database holds an unfinished seed: run with --fresh');
  const orgId = org?.id ?? (await fx.organization(Tier.BUSINESS, SEEDING)).id;
  if (!org) {
    await seed(prisma, orgId, await createLinks(fx, orgId), clicks, days);
    await prisma.$executeRaw`UPDATE organizations SET name = ${ORG_NAME} WHERE id = ${orgId}::uuid`;
  }
  const links = (await prisma.$queryRaw<Array<{ id: string }>>`
    SELECT id::text AS id FROM links WHERE organization_id = ${orgId}::uuid ORDER BY title`).map((l) => l.id);
  const { key } = await fx.apiKey(orgId);
  const only = argText('only', '');
  const paths: Array<[string, string]> = [
    ['unfiltered, days=365', '/api/analytics?days=365'],
    ['unfiltered, days=30', '/api/analytics?days=30'],
    ['unfiltered, days=365, bots=include', '/api/analytics?days=365&bots=include'],
    ['unfiltered, days=365, tz=America/New_York', '/api/analytics?days=365&tz=America/New_York'],
    ['unfiltered, days=30, tz=Asia/Kolkata', '/api/analytics?days=30&tz=Asia/Kolkata'],
    ['country=DE + device=mobile, days=365', '/api/analytics?days=365&country=DE&device=mobile'],
    ['device=desktop + os=Windows, days=365', '/api/analytics?days=365&device=desktop&os=Windows'],
    ['referrerHost=t.co + utmSource=newsletter, days=365', '/api/analytics?days=365&referrerHost=t.co&utmSource=newsletter'],
    ['linkId + country=US, days=365', `/api/analytics?days=365&linkId=${links[0]}&country=US`],
    ['utmCampaign + browser, days=365', '/api/analytics?days=365&utmCampaign=campaign-3&browser=Chrome'],
    ['city + variant, days=365, tz=Asia/Tokyo', '/api/analytics?days=365&city=Tokyo&variant=1&tz=Asia/Tokyo'],
    ['country=DE + device=mobile, days=30', '/api/analytics?days=30&country=DE&device=mobile'],
  ];
  const results = await wrkApiPaths(config, prisma, key, paths.filter(([name]) => name.includes(only)), seconds);
  print({ bench: 'analytics-filters', tool: `wrk -t1 -d${seconds}s`, clicks, days, results });
});

async function createLinks(fx: ClickFixtures, organizationId: string): Promise<string[]> {
  const links: string[] = [];
  for (let i = 0; i < LINKS; i++) links.push((await fx.link(organizationId, { title: `Link ${String(i).padStart(3, '0')}` })).id);
  return links;
}

async function seed(prisma: PrismaService, orgId: string, links: string[], clicks: number, days: number): Promise<void> {
  const t = performance.now();
  const [codes, regions, cities, zones] = cityColumns();
  // Click g: its hour spread evenly over the window (newest now), then each dimension picked by a
  // hash of g; squaring a uniform [0,1) skews a pick towards the first values (few links,
  // countries and referrers carry most clicks, as in real traffic).
  await prisma.$executeRaw`
    INSERT INTO click_cube (organization_id, hour, link_id, is_bot, country_code, region, city, timezone, device_type, platform,
      os, browser, referrer_host, utm_source, utm_medium, utm_campaign, variant_index, rule_index, sample, clicks, visitors)
    SELECT ${orgId}::uuid, date_trunc('hour', now()) - (g::bigint * ${days * 24} / ${clicks}) * interval '1 hour',
      (${links}::uuid[])[1 + floor(${LINKS} * power(u1, 2))::int], h % 50 = 0,
      c.code, c.region, c.city, c.tz, x.device, x.platform, x.os, x.browser,
      (ARRAY['t.co', 'www.google.com', NULL, 'instagram.com', NULL, 'www.facebook.com', 'news.ycombinator.com', 'www.linkedin.com',
        'www.reddit.com', 'mail.google.com'])[1 + floor(10 * power(u2, 2))::int],
      (ARRAY['newsletter', NULL, NULL, 'twitter', NULL, 'partner'])[1 + (h2 % 6)],
      (ARRAY['email', NULL, NULL, 'social', NULL, 'referral'])[1 + (h2 % 6)],
      CASE WHEN h2 % 3 <> 1 THEN 'campaign-' || (h3 % 12) END,
      CASE WHEN h3 % 10 = 0 THEN (h3 / 10 % 2)::smallint END, NULL,
      (h4 % 256)::smallint, 1, CASE WHEN h4 % 10 < 6 THEN 1 ELSE 0 END
    FROM generate_series(0, ${clicks - 1}) g
    CROSS JOIN LATERAL (SELECT hashint4(g) & 2147483647 AS h, hashint4(g + 1) & 2147483647 AS h2, hashint4(g + 2) & 2147483647 AS h3,
      hashint4(g + 3) & 2147483647 AS h4, (hashint4(g + 4) & 2147483647) / 2147483648.0 AS u1,
      (hashint4(g + 5) & 2147483647) / 2147483648.0 AS u2, (hashint4(g + 6) & 2147483647) / 2147483648.0 AS u3) r
    JOIN unnest(${codes}::text[], ${regions}::text[], ${cities}::text[], ${zones}::text[]) WITH ORDINALITY AS c(code, region, city, tz, i)
      ON c.i = 1 + floor(20 * power(r.u3, 2))::int
    JOIN (VALUES
      (0,'mobile','iOS','iOS','Mobile Safari'), (1,'mobile','Android','Android','Chrome'), (2,'desktop','Windows','Windows','Chrome'),
      (3,'desktop','macOS','Mac OS','Safari'), (4,'desktop','Windows','Windows','Edge'), (5,'tablet','iOS','iOS','Mobile Safari'),
      (6,'mobile','Android','Android','Samsung Browser'), (7,'desktop','Linux','Linux','Firefox')
    ) AS x(i, device, platform, os, browser) ON x.i = r.h % 8`;
  // The daily and monthly totals the view sizes a window with (non-bot clicks per link), as the worker keeps them.
  await prisma.$executeRaw`
    INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
    SELECT organization_id, link_id, (hour AT TIME ZONE 'UTC')::date, 'total', '', sum(clicks)
    FROM click_cube WHERE NOT is_bot GROUP BY 1, 2, 3`;
  await monthRollups(prisma);
  // The daily roll-up of every whole hour, as the worker keeps it (the current hour stays in the
  // cube until the hour is over, as it would under live traffic): one GROUP BY per breakdown of
  // dl_cube_dims (the roll-up's one statement over 110,000,000 expanded rows takes far longer).
  const r = performance.now();
  const dims = ['NULL, NULL, NULL', 'link_id::text, NULL, NULL', 'country_code, NULL, NULL', 'country_code, region, city', 'device_type, NULL, NULL',
    'os, NULL, NULL', 'browser, NULL, NULL', 'referrer_host, NULL, NULL', 'utm_source, NULL, NULL', 'utm_medium, NULL, NULL', 'utm_campaign, NULL, NULL'];
  for (const [i, keys] of dims.entries()) {
    await prisma.$executeRawUnsafe(`
      INSERT INTO click_cube_daily (organization_id, is_month, is_bot, day, dimension, k1, k2, k3, clicks, visitors)
      SELECT organization_id, false, is_bot, (hour AT TIME ZONE 'UTC')::date, ${i}, ${keys}, sum(clicks), sum(visitors)
      FROM click_cube WHERE hour < date_trunc('hour', now()) GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`);
  }
  await prisma.$executeRaw`
    INSERT INTO click_cube_daily (organization_id, is_month, is_bot, day, dimension, k1, k2, k3, clicks, visitors)
    SELECT organization_id, true, is_bot, date_trunc('month', day)::date, dimension, k1, k2, k3, sum(clicks), sum(visitors)
    FROM click_cube_daily GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;
  await prisma.$executeRaw`
    INSERT INTO click_cube_hourly (organization_id, is_bot, hour, clicks, visitors)
    SELECT organization_id, is_bot, hour, sum(clicks), sum(visitors) FROM click_cube WHERE hour < date_trunc('hour', now()) GROUP BY 1, 2, 3`;
  await prisma.$executeRaw`UPDATE click_cube_state SET rolled_before = date_trunc('hour', now())`;
  log('daily roll-up built', { s: ((performance.now() - r) / 1000).toFixed(1) });
  await vacuumAnalyze(prisma, ['click_cube', 'click_cube_daily', 'click_cube_hourly', 'click_rollups', 'links']);
  const [{ seeded, rows }] = await prisma.$queryRaw<Array<{ seeded: number; rows: number }>>`
    SELECT sum(clicks)::float8 AS seeded, count(*)::int AS rows FROM click_cube`;
  if (seeded !== clicks) throw new Error(`seeded ${seeded} clicks, expected ${clicks}`);
  log('cube built', { clicks: seeded, cubeRows: rows, s: ((performance.now() - t) / 1000).toFixed(1) });
}
