/**
 * Building the monthly report of an organization with a month of seeded clicks (docs/performance.md).
 *   node tools/scripts/run.js bench/reports.ts [--clicks 1000000] [--runs 5] [--fresh]
 */
import { performance } from 'node:perf_hooks';
import { AppConfig } from '@dl/platform/config';
import { PrismaReadService, PrismaService, Role, Tier } from '@dl/platform/db';
import { Clock, parsePeriod, ReportBuilder, ReportDataRepository, ReportsRepository, ReportsService } from '@dl/reports';
import { ReportFixtures } from '@dl/testing';
import { arg, log, median, monthRollups, print, runKeptBench, secondsSince } from './kit';

const [clicks, runs, links] = [arg('clicks', 1_000_000), arg('runs', 5), 500];

runKeptBench(`dl_bench_reports_${clicks}`, {}, async (config, prisma) => {
  const seeded = await prisma.organization.findFirst({ where: { name: 'Bench Co' } });
  await measure(prisma, config, seeded?.id ?? (await seed(prisma, clicks, links)), runs, links, clicks);
});

/** The organization, its links, a month of raw clicks, and the rollups and daily visitors the worker would have kept. */
async function seed(prisma: PrismaService, clicks: number, links: number): Promise<string> {
  const fx = new ReportFixtures(prisma);
  const org = await fx.organization({ name: 'Bench Co', tier: Tier.BUSINESS, createdAt: new Date('2025-01-01T00:00:00Z') });
  await fx.member(org.id, Role.OWNER);
  await fx.link(org.id, { createdAt: new Date('2025-01-01T00:00:00Z'), shortCode: 'benchseed' });
  const [{ template_id: templateId, user_id: userId }] = await prisma.$queryRaw<Array<{ template_id: string; user_id: string }>>`
    SELECT template_id, user_id FROM links WHERE organization_id = ${org.id}::uuid LIMIT 1`;
  let t = performance.now();
  await prisma.$executeRaw`
    INSERT INTO links (organization_id, user_id, template_id, short_code, original_url, title, created_at, updated_at)
    SELECT ${org.id}::uuid, ${userId}::uuid, ${templateId}::uuid, 'b' || lpad(g::text, 6, '0'), 'https://example.com/' || g,
      CASE WHEN g % 3 = 0 THEN NULL ELSE 'Campaign ' || g END, '2025-06-01', '2025-06-01'
    FROM generate_series(1, ${links - 1}) g`;
  // Raw clicks: skewed over links (a few hot links), spread over the 30 days.
  await prisma.$executeRaw`
    INSERT INTO clicks (id, organization_id, link_id, clicked_at, referrer_host, device_type, platform, browser, os,
      country_code, region, city, timezone, utm_source, is_bot, visitor_hash)
    SELECT gen_random_uuid(), ${org.id}::uuid, l.ids[1 + floor(power(random(), 2.5) * array_length(l.ids, 1))::int],
      timestamptz '2026-11-01' + (random() * interval '30 days'),
      (ARRAY['instagram.com','t.co','google.com','newsletter',NULL,NULL,'facebook.com','linkedin.com'])[1 + (g % 8)],
      (ARRAY['mobile','mobile','desktop','tablet'])[1 + (g % 4)],
      (ARRAY['iOS','Android','Windows','macOS','Linux'])[1 + (g % 5)],
      (ARRAY['Safari','Chrome','Firefox','Edge','Samsung Internet'])[1 + (g % 5)],
      (ARRAY['iOS','Android','Windows','macOS','Linux'])[1 + (g % 5)],
      (ARRAY['US','CA','GB','DE','FR','AU','BR','IN','JP','ES','IT','NL'])[1 + (g % 12)],
      'R' || (g % 20), 'City ' || (g % 30), 'Zone/' || (g % 12), NULL, g % 50 = 0, md5((g % 250000)::text)
    FROM generate_series(1, ${clicks}) g,
      (SELECT array_agg(id ORDER BY short_code) AS ids FROM links WHERE organization_id = ${org.id}::uuid) l`;
  log('clicks inserted', { clicks, s: secondsSince(t) });
  t = performance.now();
  // Rollups exactly as the click pipeline keeps them: bots only under 'bot'.
  await prisma.$executeRaw`
    INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
    SELECT organization_id, link_id, (clicked_at AT TIME ZONE 'UTC')::date, d.dimension, d.value, COUNT(*)
    FROM clicks c
    CROSS JOIN LATERAL (VALUES
      ('total', ''), ('country', COALESCE(country_code, '')), ('region', COALESCE(country_code, '') || '|' || COALESCE(region, '')),
      ('city', COALESCE(country_code, '') || '|' || COALESCE(region, '') || '|' || COALESCE(city, '')),
      ('timezone', COALESCE(timezone, '')), ('device', device_type), ('platform', platform), ('browser', browser), ('os', os),
      ('source', COALESCE(referrer_host, utm_source, 'Direct'))
    ) AS d(dimension, value)
    WHERE organization_id = ${org.id}::uuid AND NOT is_bot
    GROUP BY 1, 2, 3, 4, 5`;
  await prisma.$executeRaw`
    INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
    SELECT organization_id, link_id, (clicked_at AT TIME ZONE 'UTC')::date, 'bot', '', COUNT(*)
    FROM clicks WHERE organization_id = ${org.id}::uuid AND is_bot GROUP BY 1, 2, 3`;
  await monthRollups(prisma);
  await prisma.$executeRaw`
    INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash)
    SELECT DISTINCT organization_id, link_id, (clicked_at AT TIME ZONE 'UTC')::date, visitor_hash
    FROM clicks WHERE organization_id = ${org.id}::uuid AND NOT is_bot`;
  await prisma.$executeRawUnsafe('ANALYZE');
  const [{ rollups, visitors }] = await prisma.$queryRaw<Array<{ rollups: number; visitors: number }>>`
    SELECT (SELECT COUNT(*)::int FROM click_rollups) AS rollups, (SELECT COUNT(*)::int FROM click_daily_visitors) AS visitors`;
  log('rollups built', { rollups, visitors, s: secondsSince(t) });

  return org.id;
}
async function measure(prisma: PrismaService, config: AppConfig, organizationId: string, runs: number, links: number, clicks: number): Promise<void> {
  const [{ rollups }] = await prisma.$queryRaw<Array<{ rollups: number }>>`SELECT COUNT(*)::int AS rollups FROM click_rollups`;
  const repo = new ReportsRepository(prisma);
  const builder = new ReportBuilder(new ReportDataRepository(PrismaReadService.create(config, prisma)), config);
  const now = new Date('2026-12-01T00:30:00Z');
  const service = new ReportsService(repo, builder, Object.assign(new Clock(), { now: () => now }));
  const org = (await repo.findOrganization(organizationId))!;
  const times: number[] = [];
  let report;
  // Bounded: stop early once the timed part has run 20 s.
  const deadline = performance.now() + 20_000;
  for (let i = 0; i < runs && (i === 0 || performance.now() < deadline); i++) {
    const s = performance.now();
    report = await builder.build(org, parsePeriod('2026-11')!, now, false);
    times.push(performance.now() - s);
  }
  const read = async () => {
    const s = performance.now();
    await service.get({ organizationId, role: Role.OWNER }, '2026-11', false);
    return Math.round(performance.now() - s);
  };
  print({
    bench: 'reports',
    clicksInMonth: report!.kpis.clicks.value + Math.round(clicks / 50),
    nonBotClicks: report!.kpis.clicks.value,
    uniques: report!.kpis.uniques?.value,
    links,
    rollupRows: rollups,
    buildMs: { min: Math.round(Math.min(...times)), median: Math.round(median(times)), max: Math.round(Math.max(...times)) },
    firstReadStoreMs: await read(),
    storedReadMs: await read(),
  });
}
