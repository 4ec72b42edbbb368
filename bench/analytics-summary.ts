/**
 * Link analytics, the overview and the click list over seeded day rollups (docs/performance.md).
 *   node tools/scripts/run.js bench/analytics-summary.ts [--clicks 10000000] [--days 365] [--seconds 8]
 */
import { performance } from 'node:perf_hooks';
import { arg, cityColumns, log, monthRollups, print, runAnalyticsBench, vacuumAnalyze, wrkApiPaths } from './kit';

/** Click profiles per day: the clicks of a day are spread evenly over them. */
const PROFILES = 2000;
const RAW_CLICKS = 10_000;

runAnalyticsBench(21, async ({ env, org, key, links: [linkId] }) => {
  const [clicks, days, seconds] = [arg('clicks', 10_000_000), arg('days', 365), arg('seconds', 8)];
  const t = performance.now();
  const [codes, regions, cities, zones] = cityColumns();
  // Profile p of day d (d = 0 is today) gets floor(n/P) clicks, +1 for the first n % P profiles;
  // n = the day's share of --clicks. Profiles with p % 50 = 0 are bots (2%).
  await env.prisma.$executeRaw`
    CREATE TEMP TABLE bench_profiles AS
    SELECT (date_trunc('day', now() AT TIME ZONE 'UTC') - d * interval '1 day')::date AS day, p,
      (n / ${PROFILES}) + CASE WHEN p < n % ${PROFILES} THEN 1 ELSE 0 END AS clicks, p % 50 = 0 AS is_bot,
      c.code, c.region, c.city, c.tz,
      (ARRAY['instagram.com','t.co','www.google.com',NULL,NULL,'www.facebook.com','www.linkedin.com'])[1 + ((hashint4(p + 1) & 2147483647) % 7)] AS referrer_host,
      CASE WHEN p % 5 = 0 THEN 'newsletter' END AS utm_source,
      (ARRAY['mobile','mobile','desktop','tablet'])[1 + ((hashint4(p + 2) & 2147483647) % 4)] AS device,
      (ARRAY['iOS','Android','Windows','macOS','Linux'])[1 + ((hashint4(p + 3) & 2147483647) % 5)] AS platform,
      (ARRAY['Mobile Safari','Chrome','Firefox','Edge','Samsung Browser'])[1 + ((hashint4(p + 4) & 2147483647) % 5)] AS browser,
      (ARRAY['iOS','Android','Windows','Mac OS','Ubuntu'])[1 + ((hashint4(p + 3) & 2147483647) % 5)] AS os,
      (p % 2)::text AS variant
    FROM generate_series(0, ${days - 1}) d
    CROSS JOIN LATERAL (SELECT ${clicks}::bigint / ${days} + CASE WHEN d < ${clicks}::bigint % ${days} THEN 1 ELSE 0 END AS n) k
    CROSS JOIN generate_series(0, ${PROFILES - 1}) p
    JOIN unnest(${codes}::text[], ${regions}::text[], ${cities}::text[], ${zones}::text[]) WITH ORDINALITY AS c(code, region, city, tz, i)
      ON c.i = 1 + (hashint4(p) & 2147483647) % 20`;
  // Day rollups as the worker keeps them (bots only under 'bot'), then daily uniques.
  await env.prisma.$executeRaw`
    INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
    SELECT ${org.id}::uuid, ${linkId}::uuid, day, d.dimension, d.value, sum(clicks)
    FROM bench_profiles CROSS JOIN LATERAL (VALUES
      ('total', ''), ('country', code), ('region', code || '|' || region), ('city', code || '|' || region || '|' || city),
      ('timezone', tz), ('device', device), ('platform', platform), ('browser', browser), ('os', os),
      ('source', coalesce(referrer_host, utm_source, 'Direct')), ('variant', variant)) AS d(dimension, value)
    WHERE NOT is_bot AND clicks > 0 GROUP BY 3, 4, 5`;
  await env.prisma.$executeRaw`
    INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
    SELECT ${org.id}::uuid, ${linkId}::uuid, day, 'bot', '', sum(clicks) FROM bench_profiles WHERE is_bot GROUP BY day HAVING sum(clicks) > 0`;
  await env.prisma.$executeRaw`
    INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
    SELECT organization_id, link_id, day, 'visitors', '', round(clicks * 0.6) FROM click_rollups WHERE dimension = 'total'`;
  await monthRollups(env.prisma);
  // The most recent raw clicks, for the click list only.
  await env.prisma.$executeRaw`
    INSERT INTO clicks (id, organization_id, link_id, clicked_at, ip_address, user_agent, referrer_host, device_type, platform,
      browser, os, country_code, is_bot, visitor_hash)
    SELECT gen_random_uuid(), ${org.id}::uuid, ${linkId}::uuid, now() - g * interval '1 second', '198.51.100.' || (g % 250), 'bench',
      't.co', 'mobile', 'iOS', 'Mobile Safari', 'iOS', 'US', false, md5(g::text)
    FROM generate_series(1, ${RAW_CLICKS}) g`;
  const [{ nonBot }] = await env.prisma.$queryRaw<Array<{ nonBot: number }>>`
    SELECT sum(clicks)::int AS "nonBot" FROM click_rollups WHERE link_id = ${linkId}::uuid AND dimension = 'total'`;
  await env.prisma.$executeRaw`UPDATE links SET click_count = ${nonBot} WHERE id = ${linkId}::uuid`;
  await vacuumAnalyze(env.prisma, ['click_rollups', 'clicks']);
  const [{ rollups, seeded }] = await env.prisma.$queryRaw<Array<{ rollups: number; seeded: number }>>`
    SELECT count(*)::int AS rollups, (sum(clicks) FILTER (WHERE dimension IN ('total', 'bot')))::float8 AS seeded
    FROM click_rollups`;
  if (seeded !== clicks) throw new Error(`seeded ${seeded} clicks, expected ${clicks}`);
  log('rollups built', { clicks: seeded, nonBotClicks: nonBot, rollupRows: rollups, s: ((performance.now() - t) / 1000).toFixed(1) });

  const results = await wrkApiPaths(env.config, env.prisma, key, [
    ['link summary, days=365', `/api/analytics/links/${linkId}?days=365`, 1],
    ['link summary, days=30', `/api/analytics/links/${linkId}?days=30`, 1],
    ['link summary, days=365, 4 connections', `/api/analytics/links/${linkId}?days=365`, 4],
    ['overview, days=365', '/api/analytics/overview?days=365', 1],
    ['click list, limit=100', `/api/analytics/clicks/${linkId}`, 1],
  ], seconds);
  print({ bench: 'analytics-summary', tool: `wrk -t1 -d${seconds}s`, clicks, days, results });
});
