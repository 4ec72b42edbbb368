/**
 * SDK events accepted per second, and install attribution's latency at a rate (docs/performance.md).
 *   node tools/scripts/run.js bench/ingest.ts [--seconds 8] [--connections 64] [--clicks 1000000] [--rate 500] [--warmup 5] [--fresh]
 */
import { randomUUID } from 'node:crypto';
import { ClickFixtures, configEnv, SdkFixtures, spawnApp } from '@dl/testing';
import { arg, cpuSeconds, log, microsPer, print, round, runKeptBench, vacuumAnalyze, wrkWithCpu } from './kit';
import { openLoad } from './open-load';

const IP_HEADER = 'x-bench-client-ip';
const ipOf = (g: number) => `10.${Math.floor(g / 65536) % 256}.${Math.floor(g / 256) % 256}.${g % 256}`;

const [clicks, rate, seconds, connections] = [arg('clicks', 1_000_000), arg('rate', 500), arg('seconds', 8), arg('connections', 64)];
const overrides = { INGEST_RATE_LIMIT_PER_MINUTE: '100000000', TRUSTED_CLIENT_IP_HEADER: IP_HEADER, LOG_LEVEL: 'silent' };

runKeptBench(`dl_bench_install_${clicks}`, overrides, async (config, prisma) => {
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
    await vacuumAnalyze(prisma, ['clicks']);
    log('clicks seeded', { clicks, s: (Date.now() - t0) / 1000 });
  }
  // The clicks were seeded over the 7 days before the first run: a 90-day window keeps a kept database's clicks matchable.
  await prisma.$executeRawUnsafe(`UPDATE links SET attribution_window_hours = 2160`);
  const app = await new SdkFixtures(prisma).app(org.id);

  const ingest = await spawnApp('ingest', configEnv(config));
  try {
    const installId = randomUUID();
    const headers = { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' };
    const single = JSON.stringify({ installId, eventName: 'level_complete', properties: { level: 7, score: 1234, mode: 'ranked' } });
    const batch = JSON.stringify({ events: Array.from({ length: 50 }, (_, k) => ({ installId, eventName: k % 10 ? 'screen_view' : 'revenue', properties: k % 10 ? { screen: `s${k}` } : { revenue: 1.99, currency: 'USD' } })) });
    const post = (path: string, body: string, c: number, s: number) => wrkWithCpu([ingest.proc.pid!], { url: `${ingest.url}${path}`, method: 'POST', headers, body, connections: c, seconds: s });
    await post('/api/sdk/v1/event', single, 8, 1);
    const one = await post('/api/sdk/v1/event', single, connections, seconds);
    const many = await post('/api/sdk/v1/events', batch, 16, seconds);
    const events = {
      single: { connections, eventsPerSecond: one.requestsPerSecond, notOk: one.notOk, errors: one.errors, latencyMs: one.latencyMs, cpuMicrosPerEvent: one.cpuMicrosPerRequest },
      batch50: { connections: 16, eventsPerSecond: many.requestsPerSecond * 50, notOk: many.notOk, errors: many.errors, latencyMs: many.latencyMs, cpuMicrosPerEvent: round(many.cpuMicrosPerRequest / 50) },
    };

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
    const warm = await openLoad({ url: ingest.url, rate, seconds: arg('warmup', 5), request });
    log('warm-up', { ok: warm.ok, p99: warm.latency.p99 });
    const cpu0 = cpuSeconds(ingest.proc.pid!);
    const measured = await openLoad({ url: ingest.url, rate, seconds: 10, request });
    const serverCpu = cpuSeconds(ingest.proc.pid!) - cpu0;
    print({
      bench: 'ingest',
      tool: `wrk -t1 -d${seconds}s; open loop at ${rate}/s for 10 s`,
      events,
      install: { clicks, targetRate: rate, achievedRate: measured.achievedRate, ok: measured.ok, notOk: measured.notOk, errors: measured.errors, latencyMs: measured.latency, cpuMicrosPerInstall: microsPer(serverCpu, measured.ok) },
    });
  } finally {
    await ingest.stop();
  }
});
