/**
 * Worker side of SDK events: an `ingest` queue pre-filled with `sdk.event` jobs (batches of
 * 500 events as the ingest app makes them; half the installs attributed, 1 in 10 a revenue
 * event), then the real worker app stores them (attribution lookup, multi-row insert, daily
 * rollup). Reports stored events per second.
 *
 *   node tools/scripts/run.js bench/ingest-events-drain.ts [--events 200000] [--max-seconds 20]
 *
 * Own database and Redis prefix (removed at the end).
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { bullOptions, Queues, SdkEventRecord } from '@dl/platform/queue';
import { ClickFixtures, createTestEnv, ensureTemplateDatabase, SdkFixtures } from '@dl/testing';
import { arg, log, serveInChild } from './ingest-support';

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const total = arg('events', 200_000);
  const maxSeconds = arg('max-seconds', 20);
  await ensureTemplateDatabase();
  const env = await createTestEnv();
  const queue = new Queue(Queues.ingest, bullOptions(env.config));
  try {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization();
    const link = await fx.link(org.id);
    const app = await new SdkFixtures(env.prisma).app(org.id);
    // 1,000 installs, half attributed to the link.
    const installs = Array.from({ length: 1000 }, () => randomUUID());
    await env.prisma.$executeRawUnsafe(`
      INSERT INTO installs (organization_id, app_id, install_id, platform, link_id, match_type)
      SELECT '${org.id}'::uuid, '${app.id}'::uuid, i::uuid, 'ios', CASE WHEN n % 2 = 0 THEN '${link.id}'::uuid END, CASE WHEN n % 2 = 0 THEN 'fingerprint' END
      FROM unnest(ARRAY[${installs.map((i) => `'${i}'`).join(',')}]) WITH ORDINALITY AS t(i, n)`);
    const now = Date.now();
    const event = (i: number): SdkEventRecord => ({
      id: randomUUID(),
      organizationId: org.id,
      appId: app.id,
      installId: installs[i % installs.length],
      eventName: i % 10 === 0 ? 'revenue' : `event_${i % 25}`,
      eventData: i % 10 === 0 ? { revenue: 2.99, currency: 'EUR' } : { screen: `s${i % 40}`, n: i },
      eventTimestamp: new Date(now - (i % 86400) * 1000).toISOString(),
      revenue: i % 10 === 0 ? 2.99 : null,
      currency: i % 10 === 0 ? 'EUR' : null,
      receivedAt: new Date(now).toISOString(),
    });
    for (let start = 0; start < total; start += 500) {
      const events = Array.from({ length: Math.min(500, total - start) }, (_, k) => event(start + k));
      await queue.add('sdk.event', { events });
    }
    log('queue pre-filled', { events: total, jobs: Math.ceil(total / 500) });

    const worker = await serveInChild('worker', env.config);
    const t = performance.now();
    let stored = 0;
    while (stored < total && performance.now() - t < maxSeconds * 1000) {
      await new Promise((r) => setTimeout(r, 250));
      stored = (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM in_app_events`)[0].n;
    }
    const seconds = (performance.now() - t) / 1000;
    await worker.stop();
    const [{ rollup }] = await env.prisma.$queryRaw<Array<{ rollup: number }>>`SELECT coalesce(sum(events), 0)::int AS rollup FROM in_app_event_daily`;
    const attributed = await env.prisma.inAppEvent.count({ where: { attributed: true } });
    process.stdout.write(
      `${JSON.stringify({ bench: 'ingest-events-drain', events: total, stored, drained: stored === total, seconds: Number(seconds.toFixed(2)), eventsPerSecond: Math.round(stored / seconds), attributed, rollupTotal: rollup, loadAverage: loadavg()[0].toFixed(1) })}\n`,
    );
  } finally {
    await queue.close();
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
