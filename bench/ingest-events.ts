/**
 * SDK event ingestion throughput: how many events a second one ingest process accepts
 * (202: authenticated, rate-limited, validated, durably queued in Redis), with autocannon
 * on loopback against the single-event route and against the batch route (50 events a call).
 *
 *   node tools/scripts/run.js bench/ingest-events.ts [--seconds 8] [--connections 64]
 *
 * Own database and Redis prefix (removed at the end). Goal: >= 10,000 events/s accepted.
 */
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ClickFixtures, createTestEnv, ensureTemplateDatabase, SdkFixtures } from '@dl/testing';
import { loadavg } from 'node:os';
import { arg, cpuMs, load, LoadOptions, LoadResult, log, serveInChild } from './ingest-support';

const run = (opts: LoadOptions): Promise<LoadResult> => load(opts);

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const seconds = arg('seconds', 8);
  const connections = arg('connections', 64);
  await ensureTemplateDatabase();
  const env = await createTestEnv({ INGEST_RATE_LIMIT_PER_MINUTE: '100000000' });
  const server = await serveInChild('ingest', env.config);
  try {
    const org = await new ClickFixtures(env.prisma).organization();
    const app = await new SdkFixtures(env.prisma).app(org.id);
    const installId = randomUUID();
    const headers = { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' };
    const single = JSON.stringify({ installId, eventName: 'level_complete', properties: { level: 7, score: 1234, mode: 'ranked' } });
    const batch = JSON.stringify({
      events: Array.from({ length: 50 }, (_, i) => ({ installId, eventName: i % 10 ? 'screen_view' : 'revenue', properties: i % 10 ? { screen: `s${i}` } : { revenue: 1.99, currency: 'USD' } })),
    });

    // Warm-up (JIT, connections, credential cache).
    await run({ url: `${server.url}/api/sdk/v1/event`, method: 'POST', headers, body: single, connections: 8, duration: 1 });

    const cpu0 = cpuMs(server.child.pid);
    const one = await run({ url: `${server.url}/api/sdk/v1/event`, method: 'POST', headers, body: single, connections, duration: seconds });
    const cpu1 = cpuMs(server.child.pid);
    const many = await run({ url: `${server.url}/api/sdk/v1/events`, method: 'POST', headers, body: batch, connections: 16, duration: seconds });
    const cpu2 = cpuMs(server.child.pid);
    const result = {
      bench: 'ingest-events',
      seconds,
      single: {
        connections,
        accepted202: one['2xx'],
        non2xx: one.non2xx,
        errors: one.errors,
        eventsPerSecond: Math.round(one['2xx'] / one.duration),
        latencyMs: { p50: one.latency.p50, p99: one.latency.p99 },
        serverCpuMsPerEvent: Number(((cpu1 - cpu0) / Math.max(1, one['2xx'])).toFixed(3)),
      },
      batch50: {
        connections: 16,
        requestsPerSecond: Math.round(many['2xx'] / many.duration),
        eventsPerSecond: Math.round((many['2xx'] * 50) / many.duration),
        non2xx: many.non2xx,
        errors: many.errors,
        latencyMs: { p50: many.latency.p50, p99: many.latency.p99 },
        serverCpuMsPerEvent: Number(((cpu2 - cpu1) / Math.max(1, many['2xx'] * 50)).toFixed(4)),
      },
      loadAverage: loadavg()[0].toFixed(1),
      // The ingest app never writes to Postgres: rows appear only when a worker runs (none here).
      inAppEventRowsWrittenByIngest: await env.prisma.inAppEvent.count(),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await server.stop();
    await env.teardown();
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
