/**
 * Webhook delivery throughput: W webhooks (in W/10 organizations, 10 each, all subscribed to
 * `link.clicked`) and a fast receiver on loopback (its own process, keep-alive). The `webhooks`
 * queue is pre-filled with `webhook.event` jobs, then the real worker app fans them out and
 * delivers (delivery rows, Redis rate gate, signing, HTTP POST, attempt log).
 *
 *   node tools/scripts/run.js bench/webhooks.ts [--webhooks 100] [--per-second 10] [--events 2500] [--max-seconds 25] [--workers 1]
 *
 * `--per-second` is WEBHOOK_MAX_PER_SECOND (the contract's 10 caps 100 webhooks at 1,000/s;
 * raise it to measure the engine itself). `--workers N` runs N worker instances (this process and
 * N-1 child processes), as production scales out. Own database and Redis prefix, removed at the end.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { createWorkerApp } from '@dl/apps/worker';
import { AppConfig } from '@dl/platform/config';
import { bullOptions, Queues, WebhookEventJob } from '@dl/platform/queue';
import { clickEvent, createTestEnv, ensureTemplateDatabase, startApp } from '@dl/testing';
import { generateWebhookSecret } from '@dl/webhooks';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);

const RECEIVER = `
const http = require('node:http');
let count = 0;
const server = http.createServer({ keepAliveTimeout: 30000 }, (req, res) => {
  req.on('data', () => {});
  req.on('end', () => { count++; res.end('ok'); });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
setInterval(() => process.stdout.write('count ' + count + '\\n'), 100);
`;

async function startReceiver(): Promise<{ port: number; count: () => number; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  let count = 0;
  let buffer = '';
  const port = await new Promise<number>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        const [k, v] = line.split(' ');
        if (k === 'port') resolve(Number(v));
        if (k === 'count') count = Number(v);
      }
    });
  });
  return { port, count: () => count, stop: () => child.kill() };
}

async function startChildWorker(config: AppConfig): Promise<ChildProcess> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const [k, v] of Object.entries(config)) if (v !== undefined) env[k] = String(v);
  env.WORKER_PORT = '0';
  const child = spawn(process.execPath, [join(__dirname, '..', 'tools', 'scripts', 'run.js'), join(__dirname, 'webhooks-worker.ts')], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.on('data', (c: Buffer) => c.toString().includes('ready') && resolve()));
  return child;
}

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const webhooks = arg('webhooks', 100);
  const perSecond = arg('per-second', 10);
  const events = arg('events', 2500);
  const maxSeconds = arg('max-seconds', 25);
  const workers = arg('workers', 1);
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

    const children = await Promise.all(Array.from({ length: workers - 1 }, () => startChildWorker(env.config)));
    const worker = await startApp(createWorkerApp, env.config);
    log('workers started', { workers });
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const samples: Array<[number, number]> = [];
    while (receiver.count() < total && performance.now() - t0 < maxSeconds * 1000) {
      await new Promise((r) => setTimeout(r, 200));
      samples.push([(performance.now() - t0) / 1000, receiver.count()]);
      if (samples.length % 10 === 0) log('progress', { s: samples.at(-1)![0].toFixed(1), received: receiver.count() });
    }
    const seconds = (performance.now() - t0) / 1000;
    const received = receiver.count();
    const cpu = process.cpuUsage(cpu0);
    for (const c of children) c.kill();
    // Steady state: from the first delivery seen to the last sample.
    const first = samples.find(([, n]) => n > 0) ?? [seconds, 0];
    const last = samples.at(-1) ?? [seconds, received];
    const steady = last[0] > first[0] ? (last[1] - first[1]) / (last[0] - first[0]) : 0;
    const attempts = (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM webhook_attempts`)[0].n;
    const result = {
      webhooks: orgCount * perOrg,
      perWebhookLimit: perSecond,
      ceiling: orgCount * perOrg * perSecond,
      deliveries: received,
      attemptsLogged: attempts,
      seconds: Number(seconds.toFixed(1)),
      deliveriesPerSecond: Math.round(received / seconds),
      firstDeliveryAfterSeconds: Number(first[0].toFixed(1)),
      steadyPerSecond: Math.round(steady),
      /** CPU of the worker process (fan-out, gate, signing, HTTP client, attempt log) per delivery. */
      workers,
      workerCpuMsPerDelivery: workers > 1 ? null : received ? Number(((cpu.user + cpu.system) / 1000 / received).toFixed(2)) : null,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    // Bounded teardown: in-flight jobs are abandoned with the test database.
    await Promise.race([worker.close(), new Promise((r) => setTimeout(r, 3000))]);
  } finally {
    await queue.close();
    receiver.stop();
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
