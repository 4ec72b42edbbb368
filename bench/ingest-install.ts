/**
 * Install attribution latency: POST /api/sdk/v1/install at a mean 500 installs/s against
 * one ingest process, over an organization with --clicks stored clicks (SQL generate_series:
 * distinct IPs, iOS 17, English, spread over 7 days, fingerprints computed like the click
 * worker's). Half the installs match a click by fingerprint, half match nothing; every
 * install id is new (the slow path: Redis miss, installs lookup, clicks index read, Redis
 * write, enqueue).
 *
 *   node tools/scripts/run.js bench/ingest-install.ts [--clicks 1000000] [--rate 500] [--seconds 10] [--warmup 5] [--uniform | --autocannon]
 *
 * Load: open loop (default), Poisson arrivals at --rate (--uniform: a fixed gap), each latency
 * counted from the request's scheduled send time, after --warmup seconds (5) of the same load. --autocannon: the earlier measurement
 * (autocannon `overallRate`, 50 connections), which sends each connection's share of a second
 * back to back at the start of the second (a 50-concurrency burst of `rate` requests, then idle).
 *
 * DL_BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the ingest process (node --cpu-prof).
 *
 * The seeded database (`dl_bench_install_<N>`, cloned from the migrated template) is kept between
 * runs, so only the first run pays for seeding; --fresh rebuilds it. Own Redis prefix (flushed at
 * the end). Goal: p99 < 50 ms.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { PrismaService } from '@dl/platform/db';
import { adminUrl, ClickFixtures, databaseUrl, ensureTemplateDatabase, flushPrefix, SdkFixtures, templateName, testConfig } from '@dl/testing';
import { arg, cpuMs, load, log, openLoad, OpenLoadResult, serveInChild } from './ingest-support';

const IP_HEADER = 'x-bench-client-ip';
const ipOf = (g: number) => `10.${Math.floor(g / 65536) % 256}.${Math.floor(g / 256) % 256}.${g % 256}`;

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const clicks = arg('clicks', 1_000_000);
  const rate = arg('rate', 500);
  const seconds = arg('seconds', 10);
  await ensureTemplateDatabase();
  const name = `dl_bench_install_${clicks}`;
  const admin = new Client({ connectionString: adminUrl() });
  await admin.connect();
  if (process.argv.includes('--fresh')) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  if (!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`);
  }
  await admin.end();
  const config = testConfig(databaseUrl(name), { INGEST_RATE_LIMIT_PER_MINUTE: '100000000', TRUSTED_CLIENT_IP_HEADER: IP_HEADER });
  const prisma = new PrismaService(config);
  try {
    let org = await prisma.organization.findFirst({ select: { id: true } });
    if (!org || (await prisma.click.count()) !== clicks) {
      await prisma.$executeRawUnsafe('TRUNCATE clicks, installs');
      const fx = new ClickFixtures(prisma);
      org = org ?? (await fx.organization());
      const links: Array<{ id: string }> = [];
      for (let k = 0; k < 20; k++) links.push(await fx.link(org.id));
      const t0 = Date.now();
      await prisma.$executeRawUnsafe(`
        INSERT INTO clicks (id, organization_id, link_id, clicked_at, ip_address, platform, os_version, language, is_bot, visitor_hash, fingerprint)
        SELECT gen_random_uuid(), '${org.id}'::uuid, (ARRAY[${links.map((l) => `'${l.id}'::uuid`).join(',')}])[1 + g % ${links.length}],
               now() - (g % 604800) * interval '1 second',
               ip, 'iOS', '17.4', 'en', false, md5(ip),
               left(encode(sha256(convert_to('${org.id}|' || ip || '|ios|17|en', 'UTF8')), 'hex'), 32)
        FROM (SELECT g, '10.' || (g / 65536) % 256 || '.' || (g / 256) % 256 || '.' || g % 256 AS ip
              FROM generate_series(0, ${clicks - 1}) AS g) s`);
      await prisma.$executeRawUnsafe('VACUUM ANALYZE clicks');
      log('clicks seeded', { clicks, s: (Date.now() - t0) / 1000 });
    }
    // Clicks are seeded "now - up to 7 days": a kept database ages, so refresh the times.
    await prisma.$executeRawUnsafe(`UPDATE links SET attribution_window_hours = 2160`);
    const app = await new SdkFixtures(prisma).app(org.id);

    const profDir = process.env.DL_BENCH_CPU_PROF;
    const server = await serveInChild('ingest', config, profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
    try {
      let i = 0;
      const request = () => {
        const n = i++;
        // Even requests match a seeded click (IP of click g), odd ones an IP with no click.
        const g = n % 2 === 0 ? (n * 7919) % clicks : clicks + n;
        return {
          method: 'POST',
          path: '/api/sdk/v1/install',
          headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json', [IP_HEADER]: ipOf(g) },
          body: JSON.stringify({ installId: randomUUID(), platform: 'ios', osVersion: '17.5', language: 'en-GB', appVersion: '3.2.1' }),
        };
      };
      const autocannon = process.argv.includes('--autocannon');
      // Warm-up (not measured): JIT, pools and prepared statements of a process that just started.
      const warmSeconds = arg('warmup', 5);
      if (autocannon) {
        const warm = await load({ url: server.url, connections: 10, overallRate: 200, duration: 2, requests: [{ setupRequest: () => request() }] });
        log('warm-up', { ok: warm['2xx'] });
      } else if (warmSeconds > 0) {
        const warm = await openLoad({ url: server.url, rate, seconds: warmSeconds, request: () => request() });
        log('warm-up', { ok: warm.ok, p99: warm.latency.p99 });
      }
      const cpu0 = cpuMs(server.child.pid);
      let measured: { ok: number; notOk: number; errors: number; achievedRate: number; latency: OpenLoadResult['latency']; maxInFlight?: number };
      if (autocannon) {
        const res = await load({ url: server.url, connections: 50, overallRate: rate, duration: seconds, requests: [{ setupRequest: () => request() }] });
        measured = { ok: res['2xx'], notOk: res.non2xx, errors: res.errors, achievedRate: Math.round(res['2xx'] / res.duration), latency: res.latency };
      } else {
        const arrivals = process.argv.includes('--uniform') ? 'uniform' : 'poisson';
        measured = await openLoad({ url: server.url, rate, seconds, arrivals, request: () => request() });
      }
      const serverCpu = cpuMs(server.child.pid) - cpu0;
      const attributed = await prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM installs WHERE link_id IS NOT NULL`;
      const result = {
        bench: 'ingest-install',
        load: autocannon ? 'autocannon overallRate, 50 connections' : `open loop, ${process.argv.includes('--uniform') ? 'uniform' : 'poisson'} arrivals`,
        clicks,
        targetRate: rate,
        seconds,
        installs200: measured.ok,
        non2xx: measured.notOk,
        errors: measured.errors,
        achievedRate: measured.achievedRate,
        latencyMs: { p50: measured.latency.p50, p90: measured.latency.p90, p99: measured.latency.p99, max: measured.latency.max },
        maxInFlight: measured.maxInFlight,
        serverCpuMsPerInstall: Number((serverCpu / Math.max(1, measured.ok)).toFixed(3)),
        loadAverage: (await import('node:os')).loadavg()[0].toFixed(1),
        installsStoredByWorker: attributed[0].n,
      };
      process.stdout.write(`${JSON.stringify(result)}\n`);
    } finally {
      await server.stop();
    }
  } finally {
    await prisma.$disconnect();
    await flushPrefix(config.REDIS_URL, config.REDIS_PREFIX);
    log('done');
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
