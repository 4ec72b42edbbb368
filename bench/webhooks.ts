/**
 * Webhook delivery throughput: W webhooks (10 in each of W/10 organizations, all subscribed to
 * `link.clicked`) and a fast keep-alive receiver on loopback. The `webhooks`
 * queue is pre-filled with `webhook.event` jobs, then --workers worker processes (the production
 * entry) fan them out and deliver: delivery rows, the Redis rate gate, signing, HTTP POST, the
 * attempt log. Reports deliveries per second and the workers' CPU ms per delivery.
 *
 *   node tools/scripts/run.js bench/webhooks.ts [--webhooks 100] [--per-second 10] [--events 2500] [--max-seconds 25] [--workers 1]
 *
 * `--per-second` is WEBHOOK_MAX_PER_SECOND (the contract's 10 caps 100 webhooks at 1,000/s; raise
 * it to measure the engine itself). Own database and Redis prefix, removed at the end.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { bullOptions, Queues, WebhookEventJob } from '@dl/platform/queue';
import { AppProcess, clickEvent, configEnv, createTestEnv, ensureTemplateDatabase, spawnApp } from '@dl/testing';
import { generateWebhookSecret } from '@dl/webhooks';
import { arg, cpuSecondsOf, log, print, round, runBench, sleep } from './kit';

/** A keep-alive receiver that answers 200 and counts (in this process: the workers are processes of their own). */
async function startReceiver(): Promise<{ port: number; count: () => number; stop: () => void }> {
  let count = 0;
  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => req.resume().on('end', () => res.end(String(++count))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stop = () => {
    server.closeAllConnections();
    server.close();
  };
  return { port: (server.address() as AddressInfo).port, count: () => count, stop };
}

async function main(): Promise<void> {
  const webhooks = arg('webhooks', 100);
  const perSecond = arg('per-second', 10);
  const events = arg('events', 2500);
  const maxSeconds = arg('max-seconds', 25);
  const workerCount = arg('workers', 1);
  const perOrg = 10;
  const orgCount = Math.ceil(webhooks / perOrg);
  const total = events * perOrg;

  await ensureTemplateDatabase();
  const env = await createTestEnv({ WEBHOOK_MAX_PER_SECOND: String(perSecond), WEBHOOK_ORG_MAX_IN_FLIGHT: '200' });
  const receiver = await startReceiver();
  const queue = new Queue(Queues.webhooks, bullOptions(env.config));
  try {
    const orgIds: string[] = [];
    for (let o = 0; o < orgCount; o++) {
      const org = await env.prisma.organization.create({ data: { name: `Bench ${o}`, slug: `bench-${o}-${randomUUID().slice(0, 6)}` } });
      orgIds.push(org.id);
      await env.prisma.webhook.createMany({
        data: Array.from({ length: perOrg }, (_, w) => ({
          organizationId: org.id,
          url: `http://127.0.0.1:${receiver.port}/hooks/${o}/${w}`,
          events: ['link.clicked'],
          secret: generateWebhookSecret(),
        })),
      });
    }
    const event = (i: number): WebhookEventJob =>
      clickEvent(orgIds[i % orgIds.length], {
        data: {
          event: 'link.clicked',
          link: { id: randomUUID(), shortCode: `c${i}`, migration_metadata: null },
          click: { device: 'mobile', country: 'FR', timestamp: new Date().toISOString() },
        },
      });
    // Events round-robin over organizations: each fans out to that organization's 10 webhooks.
    const eventsTotal = Math.ceil(total / perOrg);
    for (let start = 0; start < eventsTotal; start += 1000) {
      const chunk = Array.from({ length: Math.min(1000, eventsTotal - start) }, (_, k) => event(start + k));
      await queue.addBulk(chunk.map((data) => ({ name: 'webhook.event' as const, data })));
    }
    log('queue pre-filled', { events: eventsTotal, deliveries: total, webhooks: orgCount * perOrg, perSecond });

    const workers: AppProcess[] = [];
    for (let w = 0; w < workerCount; w++) workers.push(await spawnApp('worker', configEnv(env.config)));
    const pids = workers.map((w) => w.proc.pid!);
    log('workers started', { workers: workerCount });
    const t0 = Date.now();
    const cpu0 = cpuSecondsOf(pids);
    const samples: Array<[number, number]> = [];
    while (receiver.count() < total && Date.now() - t0 < maxSeconds * 1000) {
      await sleep(200);
      samples.push([(Date.now() - t0) / 1000, receiver.count()]);
      if (samples.length % 10 === 0) log('progress', { s: samples[samples.length - 1][0], received: receiver.count() });
    }
    const seconds = (Date.now() - t0) / 1000;
    const received = receiver.count();
    const cpu = cpuSecondsOf(pids) - cpu0;
    for (const w of workers) await w.stop('SIGKILL');
    // Steady state: from the first delivery seen to the last sample.
    const first = samples.find(([, n]) => n > 0) ?? [seconds, 0];
    const last = samples[samples.length - 1] ?? [seconds, received];
    const steady = last[0] > first[0] ? (last[1] - first[1]) / (last[0] - first[0]) : 0;
    const attempts = (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM webhook_attempts`)[0].n;
    print({
      bench: 'webhooks',
      webhooks: orgCount * perOrg,
      perWebhookLimit: perSecond,
      ceiling: orgCount * perOrg * perSecond,
      workers: workerCount,
      deliveries: received,
      attemptsLogged: attempts,
      seconds: round(seconds),
      deliveriesPerSecond: Math.round(received / seconds),
      firstDeliveryAfterSeconds: round(first[0]),
      steadyPerSecond: Math.round(steady),
      workerCpuMsPerDelivery: received ? round((cpu * 1000) / received, 2) : null,
    });
  } finally {
    await queue.close();
    receiver.stop();
    await env.teardown();
  }
}

runBench(main);
