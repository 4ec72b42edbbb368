/**
 * Fault trials against the four apps' production entries on loopback, with a private
 * `redis-server` and a private Postgres cluster (the shared servers are never touched). Each trial
 * runs a keep-alive redirect load (a pixel site, so every 302 names its click id) and an SDK event
 * load, injects one fault, lets everything drain and prints a row: requests sent, answered, 5xx,
 * resets, clicks served vs stored, duplicates, events accepted vs stored. Every wait has a deadline.
 *
 *   node tools/scripts/run.js bench/chaos.ts [--seconds 10] [--pg-seconds 30] [--outage-seconds 10] [--concurrency 8]
 *       [--trials redis-kill,worker-kill,pg-stop,sigterm-redirect,sigterm-worker,sigterm-ingest,sigterm-api,webhooks] [--webhook-drain-seconds 60]
 *
 * `webhooks`: four organizations, each a link under light load and a `link.clicked` webhook whose
 * receiver is healthy, hangs, answers 500 or 410: the healthy one is served on the first attempt
 * while the others fail, retry or are disabled.
 */
import { Agent, get as httpGet, IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PrismaService, Tier } from '@dl/platform/db';
import { AppProcess, ClickFixtures, configEnv, PrivatePostgres, PrivateRedis, Receiver, SdkFixtures, seedWebhook, spawnApp, startReceiver, testConfig } from '@dl/testing';
import { arg, argText, log, median, print, runBench, sleep } from './kit';

type AppName = 'api' | 'redirect' | 'ingest' | 'worker';

const SECONDS = arg('seconds', 10);
const PG_SECONDS = arg('pg-seconds', 30);
const OUTAGE_SECONDS = arg('outage-seconds', 10);
const CONCURRENCY = arg('concurrency', 8);
const TRIALS = argText('trials', 'redis-kill,worker-kill,pg-stop,sigterm-redirect,sigterm-worker,sigterm-ingest,sigterm-api').split(',');
const DRAIN_DEADLINE_MS = 180_000;
const WEBHOOK_DRAIN_SECONDS = arg('webhook-drain-seconds', 60);
const WEBHOOK_KINDS = ['healthy', 'hanging', '500', '410'] as const;
type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** Requests of one load; `unavailable`: the 5xx that were 503 with a Retry-After (the answer while a dependency is down). */
type Tally = { sent: number; answered: number; fiveXx: number; unavailable: number; resets: number; refused: number };
const tally = (): Tally => ({ sent: 0, answered: 0, fiveXx: 0, unavailable: 0, resets: 0, refused: 0 });

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dl-chaos-'));
  const redis = await PrivateRedis.create(dir, { appendonly: true });
  const pg = await PrivatePostgres.create();
  const apps = new Map<AppName, AppProcess>();
  const rows: Array<Record<string, unknown>> = [];
  let webhooks: Array<Record<string, unknown>> | undefined;
  try {
    const url = await pg.createDatabase();
    const config = testConfig(url, {
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      CLICK_FALLBACK_DIR: join(dir, 'fallback'),
      RATE_LIMIT_ENABLED: 'false',
      // Webhook retries within a trial (the contract's backoff starts at a minute).
      WEBHOOK_RETRY_BASE_MS: '5000',
      INGEST_RATE_LIMIT_PER_MINUTE: '100000000',
      SHUTDOWN_TIMEOUT_MS: '20000',
    });
    const env = configEnv(config);
    const prisma = new PrismaService(config);
    const fx = new ClickFixtures(prisma);
    const org = await fx.organization(Tier.PRO);
    await addPixelSite(prisma, org.id);
    const sdkApp = await new SdkFixtures(prisma).app(org.id);

    // The apps at the bench's own priority: on a busy shared host a worker at its production priority
    // drains after the load, not within a trial's deadline, and the trial is about faults.
    const start = async (name: AppName) => apps.set(name, await spawnApp(name, env, 120_000));
    for (const name of ['api', 'redirect', 'ingest', 'worker'] as AppName[]) await start(name);

    const count = async (sql: string, ...params: unknown[]) => {
      for (;;) {
        try {
          const [row] = await prisma.$queryRawUnsafe<Array<{ n: number }>>(sql, ...params);
          return row.n;
        } catch {
          await sleep(1000); // Postgres down in the middle of a trial
        }
      }
    };

    for (const trial of TRIALS) {
      if (trial === 'webhooks') {
        webhooks = await webhookTrial(prisma, fx, apps.get('redirect')!.port);
        continue;
      }
      const link = await fx.link(org.id);
      const served = new Set<string>();
      const redirectTally = tally();
      const sdkTally = tally();
      let eventsAccepted = 0;
      const installId = randomUUID();
      let running = true;
      const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
      const target = (name: AppName) => apps.get(name)?.port ?? 0;

      /** One request of a load loop, counted in `t`; refused connections (an app restarting) back off 50 ms. */
      const hit = (t: Tally, opts: RequestOptions, body: string | undefined, onAnswer: (res: IncomingMessage) => void) =>
        new Promise<void>((resolve) => {
          t.sent++;
          const req = httpRequest({ host: '127.0.0.1', agent, ...opts }, (res) => {
            t.answered++;
            t.fiveXx += res.statusCode! >= 500 ? 1 : 0;
            t.unavailable += res.statusCode === 503 && res.headers['retry-after'] !== undefined ? 1 : 0;
            onAnswer(res);
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', (err: NodeJS.ErrnoException) => {
            if (err.code === 'ECONNREFUSED') t.refused++;
            else t.resets++;
            setTimeout(resolve, err.code === 'ECONNREFUSED' ? 50 : 0);
          });
          req.end(body);
        });
      const visit = () =>
        hit(redirectTally, { port: target('redirect'), path: `/${link.shortCode}`, headers: { 'user-agent': 'chaos/1.0' } }, undefined, (res) => {
          const id = clickIdOf(res);
          if (id) served.add(id);
        });
      const eventBody = JSON.stringify({ installId, eventName: `chaos_${trial}` });
      const eventHeaders = { 'content-type': 'application/json', authorization: `Bearer ${sdkApp.token}`, 'content-length': Buffer.byteLength(eventBody) };
      const event = () =>
        hit(sdkTally, { port: target('ingest'), path: '/api/sdk/v1/event', method: 'POST', headers: eventHeaders }, eventBody, (res) => {
          if (res.statusCode === 202) eventsAccepted++;
        });
      const loops = [
        ...Array.from({ length: CONCURRENCY }, async () => {
          while (running) await visit();
        }),
        ...Array.from({ length: Math.max(1, CONCURRENCY / 4) }, async () => {
          while (running) {
            await event();
            await sleep(5);
          }
        }),
      ];

      const started = Date.now();
      await sleep(1000);
      if (trial === 'redis-kill') {
        await redis.stop('SIGKILL');
        await sleep(OUTAGE_SECONDS * 1000);
        await redis.start();
      } else if (trial === 'worker-kill') {
        await apps.get('worker')!.stop('SIGKILL');
        await sleep(2000);
        await start('worker');
      } else if (trial === 'pg-stop') {
        await pg.stop('fast');
        await sleep(PG_SECONDS * 1000);
        await pg.start();
      } else if (trial.startsWith('sigterm-')) {
        const name = trial.slice('sigterm-'.length) as AppName;
        const code = await apps.get(name)!.stop('SIGTERM');
        if (code !== 0) process.stderr.write(`${name} exited with ${code} on SIGTERM\n`);
        await start(name);
      }
      const rest = SECONDS * 1000 - (Date.now() - started);
      if (rest > 0) await sleep(rest);
      running = false;
      await Promise.all(loops);
      agent.destroy();

      // Let the pipeline drain: stored clicks stop changing (or every served click is stored).
      const deadline = Date.now() + DRAIN_DEADLINE_MS;
      let stored = -1;
      for (;;) {
        await sleep(2000);
        const now = await count('SELECT count(*)::int AS n FROM clicks WHERE link_id = $1::uuid', link.id);
        if (now >= served.size || (now === stored && Date.now() > deadline - DRAIN_DEADLINE_MS + 30_000) || Date.now() > deadline) {
          stored = now;
          break;
        }
        stored = now;
      }
      const storedServed = served.size ? await count('SELECT count(*)::int AS n FROM clicks WHERE link_id = $1::uuid AND id = ANY($2::uuid[])', link.id, [...served]) : 0;
      const rollup = await count(`SELECT coalesce(sum(clicks), 0)::int AS n FROM click_rollups WHERE link_id = $1::uuid AND dimension = 'total'`, link.id);
      const eventsStored = await count('SELECT count(*)::int AS n FROM in_app_events WHERE event_name = $1', `chaos_${trial}`);
      const seconds = Math.round((Date.now() - started) / 1000);
      rows.push({ trial, redirect: redirectTally, sdk: sdkTally, clicksServed: served.size, clicksStored: storedServed, duplicates: Math.max(0, rollup - stored), eventsAccepted, eventsStored, seconds });
      log('trial', rows[rows.length - 1]);
    }
    print({ bench: 'chaos', seconds: SECONDS, concurrency: CONCURRENCY, trials: rows, ...(webhooks ? { webhooks } : {}) });
    await prisma.$disconnect();
  } finally {
    for (const app of apps.values()) await app.stop('SIGTERM').catch(() => undefined);
    await redis.stop('SIGKILL');
    await pg.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pixel site makes every 302 name its click id (`dl_click`), which is also its `link.clicked` delivery's webhook-id. */
const addPixelSite = (prisma: PrismaService, organizationId: string) =>
  prisma.pixelSite.create({ data: { organizationId, name: 'Site', domain: 'example.com', siteKey: `dlp_${randomUUID().replace(/-/g, '')}` } });
const clickIdOf = (res: IncomingMessage) => (res.statusCode === 302 && res.headers.location ? new URL(res.headers.location).searchParams.get('dl_click') : null);
const webhookIds = (r: Receiver) => r.requests.map((q) => String(q.headers['webhook-id'] ?? ''));

/**
 * Webhook receivers hanging, answering 500 and 410 beside a healthy one, each the `link.clicked`
 * webhook of its own organization whose link gets ~4 visits a second for `--seconds`. Waits until
 * the healthy receiver has every click (or `--webhook-drain-seconds`), then prints one row per receiver.
 */
async function webhookTrial(prisma: PrismaService, fx: ClickFixtures, redirectPort: number): Promise<Array<Record<string, unknown>>> {
  const clickedAt = new Map<string, number>();
  const setup = new Map<WebhookKind, { receiver: Receiver; link: { id: string; shortCode: string }; webhookId: string; sent: number }>();
  for (const kind of WEBHOOK_KINDS) {
    // The hanging receiver never answers: the worker's timeout ends each try.
    const receiver = await startReceiver((_req, res) => void (kind !== 'hanging' && res.writeHead(kind === 'healthy' ? 200 : Number(kind)).end(kind)));
    const org = await fx.organization(Tier.PRO, `Webhook ${kind}`);
    await addPixelSite(prisma, org.id);
    setup.set(kind, { receiver, link: await fx.link(org.id), webhookId: (await seedWebhook(prisma, org.id, receiver.url)).id, sent: 0 });
  }
  const started = Date.now();
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  // A browser's user agent: bots' clicks are recorded but never sent to webhooks.
  const headers = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36' };
  const visit = (kind: WebhookKind) =>
    new Promise<void>((resolve) => {
      const s = setup.get(kind)!;
      const req = httpGet({ host: '127.0.0.1', port: redirectPort, path: `/${s.link.shortCode}`, agent, headers }, (res) => {
        const id = clickIdOf(res);
        if (id) clickedAt.set(id, Date.now());
        if (res.statusCode === 302 && res.headers.location) s.sent++;
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
    });
  while (Date.now() - started < SECONDS * 1000) {
    await Promise.all(WEBHOOK_KINDS.map(visit));
    await sleep(250);
  }
  agent.destroy();
  const loadEnded = Date.now();
  const healthy = setup.get('healthy')!;
  while (new Set(webhookIds(healthy.receiver)).size < healthy.sent && Date.now() - loadEnded < WEBHOOK_DRAIN_SECONDS * 1000) await sleep(1000);
  // Give the failing receivers the same time as the healthy one had, at least 20 s (retries, the 410's disable).
  await sleep(Math.max(0, 20_000 - (Date.now() - loadEnded)));

  const out: Array<Record<string, unknown>> = [];
  for (const [kind, { receiver, link, webhookId }] of setup) {
    const deliveries = await prisma.webhookDelivery.findMany({ where: { webhookId }, select: { status: true, attempts: true } });
    // From each click's 302 to the first request naming it (the healthy receiver's only).
    const seen = new Set<string>();
    const lags: number[] = [];
    for (const [i, id] of webhookIds(receiver).entries()) {
      const at = clickedAt.get(id);
      if (kind === 'healthy' && !seen.has(id) && at && receiver.requests[i].body.includes('link.clicked')) lags.push(receiver.requests[i].at - at);
      seen.add(id);
    }
    out.push({
      receiver: kind,
      clicks: await prisma.click.count({ where: { linkId: link.id } }),
      deliveries: deliveries.length,
      delivered: deliveries.filter((d) => d.status === 'success').length,
      firstAttempt: deliveries.filter((d) => d.status === 'success' && d.attempts === 1).length,
      attempts: await prisma.webhookAttempt.count({ where: { delivery: { webhookId } } }),
      requestsReceived: receiver.requests.length,
      lagSeconds: lags.length ? { p50: median(lags) / 1000, max: Math.max(...lags) / 1000 } : null,
      webhookActive: (await prisma.webhook.findUniqueOrThrow({ where: { id: webhookId } })).isActive,
    });
    await receiver.close();
  }
  return out;
}

runBench(main);
