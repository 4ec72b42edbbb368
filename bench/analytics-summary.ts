/**
 * Link analytics summary over 1,000,000 clicks spread across 365 days: raw clicks
 * seeded with SQL generate_series, then rollups, daily visitors and the `visitors`
 * rollup (day and month rows) made from them exactly as the click pipeline keeps them. Then
 * `GET /api/analytics/links/:id?days=365` (and days=30, and the overview) is
 * measured with autocannon over real HTTP (API key auth included).
 *
 *   node tools/scripts/run.js bench/analytics-summary.ts [--clicks 1000000] [--seconds 8]
 *
 * Own database cloned from the migrated template (dropped at the end). Seeding
 * takes a while; each timed run is bounded by --seconds.
 */
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { ClickFixtures, MONTH_ROLLUP_PREFIX, MONTHLY_DIMENSIONS } from '@dl/clicks';
import { createApiApp } from '@dl/apps/api';
import { Tier } from '@dl/platform/db';
import { createTestEnv, ensureTemplateDatabase, startApp } from '@dl/testing';

interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p90: number; p99: number };
  non2xx: number;
}
// autocannon ships no type declarations.
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const clicks = arg('clicks', 1_000_000);
  const seconds = arg('seconds', 8);
  await ensureTemplateDatabase();
  const env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
  try {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.BUSINESS);
    const { key } = await fx.apiKey(org.id);
    const link = await fx.link(org.id, { title: 'Hot link' });
    for (let i = 0; i < 20; i++) await fx.link(org.id);
    let t = performance.now();
    await env.prisma.$executeRaw`
      INSERT INTO clicks (id, organization_id, link_id, clicked_at, ip_address, user_agent, referrer_host, device_type, platform,
        browser, os, country_code, country_name, region, city, timezone, utm_source, is_bot, visitor_hash)
      SELECT gen_random_uuid(), ${org.id}::uuid, ${link.id}::uuid,
        date_trunc('day', now()) - (g % 365) * interval '1 day' + (g % 86400) * interval '1 second',
        '198.51.100.' || (g % 250), 'bench',
        (ARRAY['instagram.com','t.co','www.google.com',NULL,NULL,'www.facebook.com','www.linkedin.com'])[1 + ((hashint4(g + 1) & 2147483647) % 7)],
        (ARRAY['mobile','mobile','desktop','tablet'])[1 + ((hashint4(g + 2) & 2147483647) % 4)],
        (ARRAY['iOS','Android','Windows','macOS','Linux'])[1 + ((hashint4(g + 3) & 2147483647) % 5)],
        (ARRAY['Mobile Safari','Chrome','Firefox','Edge','Samsung Browser'])[1 + ((hashint4(g + 4) & 2147483647) % 5)],
        (ARRAY['iOS','Android','Windows','Mac OS','Ubuntu'])[1 + ((hashint4(g + 3) & 2147483647) % 5)],
        c.code, c.name, c.region, c.city, c.tz,
        CASE WHEN g % 5 = 0 THEN 'newsletter' END, g % 50 = 0, md5((g % 400000)::text)
      FROM generate_series(1, ${clicks}) g
      JOIN (VALUES
        (0,'US','United States','California','Los Angeles','America/Los_Angeles'), (1,'US','United States','New York','New York','America/New_York'),
        (2,'GB','United Kingdom','England','London','Europe/London'), (3,'DE','Germany','Berlin','Berlin','Europe/Berlin'),
        (4,'FR','France','Île-de-France','Paris','Europe/Paris'), (5,'BR','Brazil','São Paulo','São Paulo','America/Sao_Paulo'),
        (6,'IN','India','Maharashtra','Mumbai','Asia/Kolkata'), (7,'JP','Japan','Tokyo','Tokyo','Asia/Tokyo'),
        (8,'CA','Canada','Ontario','Toronto','America/Toronto'), (9,'AU','Australia','New South Wales','Sydney','Australia/Sydney'),
        (10,'ES','Spain','Madrid','Madrid','Europe/Madrid'), (11,'IT','Italy','Lombardy','Milan','Europe/Rome'),
        (12,'NL','Netherlands','North Holland','Amsterdam','Europe/Amsterdam'), (13,'SE','Sweden','Stockholm','Stockholm','Europe/Stockholm'),
        (14,'MX','Mexico','Mexico City','Mexico City','America/Mexico_City'), (15,'US','United States','Texas','Austin','America/Chicago'),
        (16,'GB','United Kingdom','Scotland','Edinburgh','Europe/London'), (17,'DE','Germany','Bavaria','Munich','Europe/Berlin'),
        (18,'NG','Nigeria','Lagos','Lagos','Africa/Lagos'), (19,'KR','South Korea','Seoul','Seoul','Asia/Seoul')
      ) AS c(i, code, name, region, city, tz) ON c.i = (hashint4(g) & 2147483647) % 20`;
    log('clicks inserted', { clicks, s: ((performance.now() - t) / 1000).toFixed(1) });
    t = performance.now();
    // The rollups the worker keeps (bots only under 'bot').
    await env.prisma.$executeRaw`
      INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      SELECT organization_id, link_id, (clicked_at AT TIME ZONE 'UTC')::date, d.dimension, d.value, count(*)
      FROM clicks c CROSS JOIN LATERAL (VALUES
        ('total', ''), ('country', coalesce(country_code, '')), ('region', country_code || '|' || region),
        ('city', country_code || '|' || region || '|' || city), ('timezone', coalesce(timezone, '')),
        ('device', device_type), ('platform', platform), ('browser', browser), ('os', os),
        ('source', coalesce(referrer_host, utm_source, 'Direct'))) AS d(dimension, value)
      WHERE NOT is_bot GROUP BY 1, 2, 3, 4, 5`;
    await env.prisma.$executeRaw`
      INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      SELECT organization_id, link_id, (clicked_at AT TIME ZONE 'UTC')::date, 'bot', '', count(*) FROM clicks WHERE is_bot GROUP BY 1, 2, 3`;
    await env.prisma.$executeRaw`
      INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash)
      SELECT DISTINCT organization_id, link_id, (clicked_at AT TIME ZONE 'UTC')::date, visitor_hash FROM clicks WHERE NOT is_bot`;
    await env.prisma.$executeRaw`
      INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      SELECT organization_id, link_id, day, 'visitors', '', count(*) FROM click_daily_visitors GROUP BY 1, 2, 3`;
    // Month rows of the summary dimensions, as the worker keeps them.
    await env.prisma.$executeRaw`
      INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      SELECT organization_id, link_id, date_trunc('month', day)::date, ${MONTH_ROLLUP_PREFIX} || dimension, value, sum(clicks)
      FROM click_rollups WHERE dimension = ANY(${[...MONTHLY_DIMENSIONS]}::text[]) GROUP BY 1, 2, 3, 4, 5`;
    await env.prisma.$executeRaw`UPDATE links SET click_count = (SELECT count(*) FROM clicks WHERE NOT is_bot) WHERE id = ${link.id}::uuid`;
    await env.prisma.$executeRawUnsafe('VACUUM ANALYZE clicks');
    await env.prisma.$executeRawUnsafe('VACUUM ANALYZE click_rollups');
    await env.prisma.$executeRawUnsafe('VACUUM ANALYZE click_daily_visitors');
    const [{ rollups, visitors }] = await env.prisma.$queryRaw<Array<{ rollups: number; visitors: number }>>`
      SELECT (SELECT count(*)::int FROM click_rollups) AS rollups, (SELECT count(*)::int FROM click_daily_visitors) AS visitors`;
    log('rollups built', { rollupRows: rollups, dailyVisitorRows: visitors, s: ((performance.now() - t) / 1000).toFixed(1) });

    if (process.argv.includes('--explain')) {
      const plan = await env.prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(
        `EXPLAIN (ANALYZE, BUFFERS) SELECT dimension, value, sum(clicks) FROM click_rollups r
          WHERE r.organization_id = '${org.id}' AND r.link_id = '${link.id}'
            AND ((r.dimension = ANY('{total,country,city}') AND r.day BETWEEN current_date - 364 AND current_date - 330)
              OR (r.dimension = ANY('{month:total,month:country,month:city}') AND r.day BETWEEN current_date - 329 AND current_date - 30))
          GROUP BY 1, 2`,
      );
      log('plan', { plan: plan.map((r) => r['QUERY PLAN']) });
    }
    const api = await startApp(createApiApp, env.config);
    const results: Record<string, unknown>[] = [];
    try {
      for (const [name, path, connections] of [
        ['link summary, days=365', `/api/analytics/links/${link.id}?days=365`, 1],
        ['link summary, days=30', `/api/analytics/links/${link.id}?days=30`, 1],
        ['link summary, days=365, 4 connections', `/api/analytics/links/${link.id}?days=365`, 4],
        ['overview, days=365', '/api/analytics/overview?days=365', 1],
        ['click list, limit=100', `/api/analytics/clicks/${link.id}`, 1],
      ] as Array<[string, string, number]>) {
        const r = await autocannon({
          url: `${api.url}${path}`,
          connections,
          duration: seconds,
          headers: { authorization: `Bearer ${key}` },
        });
        results.push({
          name,
          requests: r.requests.total,
          rps: Math.round(r.requests.average),
          p50ms: r.latency.p50,
          p90ms: r.latency.p90,
          p99ms: r.latency.p99,
          non2xx: r.non2xx,
        });
      }
    } finally {
      await api.close();
    }
    process.stdout.write(`${JSON.stringify({ bench: 'analytics-summary', clicks, results }, null, 1)}\n`);
  } finally {
    await env.teardown();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
