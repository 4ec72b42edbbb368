/**
 * Event analytics over 5,000,000 in-app events of one organization (spread over 365 days,
 * 40 event names, 1 in 40 a `revenue` event): latency of each endpoint through the real
 * api process (auth guard included), autocannon on loopback.
 *
 *   node tools/scripts/run.js bench/events-analytics.ts [--events 5000000] [--seconds 4] [--fresh]
 *
 * The seeded database (`dl_bench_events_<N>`, cloned from the migrated template; raw events
 * inserted with SQL generate_series, the daily rollup built from them with one GROUP BY) is kept
 * between runs, so only the first run pays for seeding; --fresh rebuilds it. Goal: overview < 200 ms.
 */
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { SessionTokens } from '@dl/auth';
import { PrismaService } from '@dl/platform/db';
import { adminUrl, databaseUrl, ensureTemplateDatabase, flushPrefix, seedOrganization, TestEnv, templateName, testConfig } from '@dl/testing';
import { arg, load, log, serveInChild } from './ingest-support';

async function admin<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const events = arg('events', 5_000_000);
  const seconds = arg('seconds', 4);
  const fresh = process.argv.includes('--fresh');
  const name = `dl_bench_events_${events}`;
  await ensureTemplateDatabase();
  const exists = await admin(async (c) => {
    if (fresh) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  });
  if (!exists) await admin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`));
  const config = testConfig(databaseUrl(name), { RATE_LIMIT_ENABLED: 'false' });
  const prisma = new PrismaService(config);
  try {
    let owner = await prisma.membership.findFirst({ where: { role: 'OWNER' }, select: { organizationId: true, userId: true } });
    const seeded = owner ? await prisma.inAppEvent.count({ where: { organizationId: owner.organizationId } }) : 0;
    if (!owner || seeded !== events) {
      const t0 = Date.now();
      await prisma.$executeRawUnsafe('TRUNCATE in_app_events, in_app_event_daily');
      const org = owner ? { id: owner.organizationId } : (await seedOrganization({ prisma, config } as TestEnv, { tier: 'PRO' })).organization;
      owner = await prisma.membership.findFirstOrThrow({ where: { organizationId: org.id, role: 'OWNER' }, select: { organizationId: true, userId: true } });
      const tpl = await prisma.template.findFirstOrThrow({ where: { organizationId: org.id } });
      const links: string[] = [];
      for (let i = 0; i < 50; i++) {
        const l = await prisma.link.create({ data: { organizationId: org.id, userId: owner.userId, templateId: tpl.id, shortCode: `be${i}${Date.now().toString(36)}`, originalUrl: 'https://example.com/', title: `Campaign ${i}` } });
        links.push(l.id);
      }
      const app = await prisma.app.create({ data: { organizationId: org.id, name: 'Bench', platform: 'ios', bundleId: 'com.bench', tokenHash: 'x'.repeat(64), tokenPrefix: 'dla_x…' } });
      for (let start = 1; start <= events; start += 1_000_000) {
        const end = Math.min(events, start + 999_999);
        await prisma.$executeRawUnsafe(`
          INSERT INTO in_app_events (id, organization_id, app_id, install_id, link_id, event_name, event_data, event_timestamp, revenue, currency, attributed)
          SELECT gen_random_uuid(), '${org.id}'::uuid, '${app.id}'::uuid, md5((g % 200000)::text)::uuid,
                 (ARRAY[${links.map((l) => `'${l}'::uuid`).join(',')}])[1 + g % ${links.length}],
                 CASE WHEN g % 40 = 0 THEN 'revenue' ELSE 'event_' || (g % 40) END,
                 CASE WHEN g % 40 = 0 THEN '{"revenue": 1.99, "currency": "USD"}'::jsonb ELSE '{"screen": "home"}'::jsonb END,
                 now() - (g % 31536000) * interval '1 second',
                 CASE WHEN g % 40 = 0 THEN 1.99 END, CASE WHEN g % 40 = 0 THEN 'USD' END, true
          FROM generate_series(${start}, ${end}) AS g`);
        log('events seeded', { upTo: end, s: (Date.now() - t0) / 1000 });
      }
      await prisma.$executeRawUnsafe(`
        INSERT INTO in_app_event_daily (organization_id, day, event_name, events, revenue, last_occurred)
        SELECT organization_id, (event_timestamp AT TIME ZONE 'UTC')::date, event_name, count(*), coalesce(sum(revenue), 0), max(event_timestamp)
        FROM in_app_events WHERE attributed GROUP BY 1, 2, 3`);
      await prisma.$executeRawUnsafe('VACUUM ANALYZE in_app_events');
      await prisma.$executeRawUnsafe('VACUUM ANALYZE in_app_event_daily');
      log('seeded', { events, s: (Date.now() - t0) / 1000 });
    }
    const jwt = new SessionTokens(config).sign({ sub: owner.userId, org: owner.organizationId, role: 'OWNER' });
    const server = await serveInChild('api', config);
    try {
      const paths = [
        '/api/analytics/events/overview',
        '/api/analytics/events/overview?days=365',
        '/api/analytics/events/timeline?days=365',
        '/api/analytics/events/names',
        '/api/analytics/events/list?days=365&search=EVENT_1',
        '/api/analytics/events/export?days=365&limit=1000',
      ];
      const results: Record<string, unknown> = {};
      for (const path of paths) {
        await load({ url: `${server.url}${path}`, headers: { authorization: `Bearer ${jwt}` }, connections: 2, duration: 1 });
        const r = await load({ url: `${server.url}${path}`, headers: { authorization: `Bearer ${jwt}` }, connections: 4, duration: seconds });
        results[path] = { requests: r['2xx'], non2xx: r.non2xx, rps: Math.round(r['2xx'] / r.duration), p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max };
      }
      const overview = (await (await fetch(`${server.url}/api/analytics/events/overview?days=365`, { headers: { authorization: `Bearer ${jwt}` } })).json()) as { totalEvents: number; totalRevenue: number };
      process.stdout.write(`${JSON.stringify({ bench: 'events-analytics', events, overviewDays365: { totalEvents: overview.totalEvents, totalRevenue: overview.totalRevenue }, latencyMs: results })}\n`);
    } finally {
      await server.stop();
    }
  } finally {
    await prisma.$disconnect();
    await flushPrefix(config.REDIS_URL, config.REDIS_PREFIX);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
