/**
 * Webhook deliveries per second and the worker's CPU per delivery (docs/performance.md).
 *   node tools/scripts/run.js bench/webhooks.ts [--webhooks 100] [--per-second 10] [--events 2500] [--max-seconds 25] [--workers 1]
 * --per-second is WEBHOOK_MAX_PER_SECOND: raise it to measure the delivery engine rather than the contract's cap.
 */
import { randomUUID } from 'node:crypto';
import { AppProcess, clickEvent, configEnv, createTestEnv, enqueueEvents, ensureTemplateDatabase, eventQueue, seedOrg, spawnApp, startReceiver } from '@dl/testing';
import { generateWebhookSecret } from '@dl/webhooks';
import { arg, cpuSecondsOf, log, print, round, runBench, watchDrain } from './kit';

runBench(async () => {
  const [webhooks, perSecond, events, maxSeconds, workerCount] = [arg('webhooks', 100), arg('per-second', 10), arg('events', 2500), arg('max-seconds', 25), arg('workers', 1)];
  const perOrg = 10;
  const orgCount = Math.ceil(webhooks / perOrg);
  const total = events * perOrg;
  await ensureTemplateDatabase();
  const env = await createTestEnv({ WEBHOOK_MAX_PER_SECOND: String(perSecond), WEBHOOK_ORG_MAX_IN_FLIGHT: '200' });
  const receiver = await startReceiver();
  const queue = eventQueue(env.config);
  const workers: AppProcess[] = [];
  try {
    const orgIds: string[] = [];
    for (let o = 0; o < orgCount; o++) {
      const organizationId = await seedOrg(env.prisma, `Bench ${o}`);
      orgIds.push(organizationId);
      await env.prisma.webhook.createMany({ data: Array.from({ length: perOrg }, (_, w) => ({ organizationId, url: `${receiver.url}/${o}/${w}`, events: ['link.clicked'], secret: generateWebhookSecret() })) });
    }
    // Events round-robin over organizations: each fans out to that organization's 10 webhooks.
    const event = (i: number) =>
      clickEvent(orgIds[i % orgIds.length], { data: { event: 'link.clicked', link: { id: randomUUID(), shortCode: `c${i}`, migration_metadata: null }, click: { device: 'mobile', country: 'FR', timestamp: new Date().toISOString() } } });
    for (let start = 0; start < events; start += 1000) await enqueueEvents(queue, Array.from({ length: Math.min(1000, events - start) }, (_, k) => event(start + k)));
    log('queue pre-filled', { events, deliveries: total, webhooks: orgCount * perOrg, perSecond });

    for (let w = 0; w < workerCount; w++) workers.push(await spawnApp('worker', configEnv(env.config)));
    const pids = workers.map((w) => w.proc.pid!);
    const cpu0 = cpuSecondsOf(pids);
    const { stored: received, seconds, steadyPerSecond } = await watchDrain(async () => receiver.requests.length, total, maxSeconds);
    const cpu = cpuSecondsOf(pids) - cpu0;
    for (const w of workers.splice(0)) await w.stop('SIGKILL');
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
      steadyPerSecond,
      workerCpuMsPerDelivery: received ? round((cpu * 1000) / received, 2) : null,
    });
  } finally {
    for (const w of workers) await w.stop('SIGKILL');
    await queue.close();
    await receiver.close();
    await env.teardown();
  }
});
