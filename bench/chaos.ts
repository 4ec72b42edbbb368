/**
 * Faults and SIGTERMs under load on the four apps, a private redis-server and Postgres: nothing lost (docs/performance.md).
 *   node tools/scripts/run.js bench/chaos.ts [--seconds 10] [--pg-seconds 30] [--outage-seconds 10] [--concurrency 8]
 *       [--trials redis-kill,worker-kill,pg-stop,sigterm-redirect,sigterm-worker,sigterm-ingest,sigterm-api]
 */
import { Agent, IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PrismaService, Tier } from '@dl/platform/db';
import { AppProcess, ClickFixtures, configEnv, PrivatePostgres, PrivateRedis, SdkFixtures, spawnApp, testConfig } from '@dl/testing';
import { arg, argText, log, print, runBench, sleep } from './kit';

type AppName = 'api' | 'redirect' | 'ingest' | 'worker';

const SECONDS = arg('seconds', 10);
const PG_SECONDS = arg('pg-seconds', 30);
const OUTAGE_SECONDS = arg('outage-seconds', 10);
const CONCURRENCY = arg('concurrency', 8);
const TRIALS = argText('trials', 'redis-kill,worker-kill,pg-stop,sigterm-redirect,sigterm-worker,sigterm-ingest,sigterm-api').split(',');
const DRAIN_DEADLINE_MS = 180_000;

/** Requests of one load; `unavailable`: the 5xx that were 503 with a Retry-After (the answer while a dependency is down). */
type Tally = { sent: number; answered: number; fiveXx: number; unavailable: number; resets: number; refused: number };
const tally = (): Tally => ({ sent: 0, answered: 0, fiveXx: 0, unavailable: 0, resets: 0, refused: 0 });

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dl-chaos-'));
  const redis = await PrivateRedis.create(dir, { appendonly: true });
  const pg = await PrivatePostgres.create();
  const apps = new Map<AppName, AppProcess>();
  const rows: Array<Record<string, unknown>> = [];
  try {
    const url = await pg.createDatabase();
    const config = testConfig(url, {
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      CLICK_FALLBACK_DIR: join(dir, 'fallback'),
      RATE_LIMIT_ENABLED: 'false',
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
    print({ bench: 'chaos', seconds: SECONDS, concurrency: CONCURRENCY, trials: rows });
    await prisma.$disconnect();
  } finally {
    for (const app of apps.values()) await app.stop('SIGTERM').catch(() => undefined);
    await redis.stop('SIGKILL');
    await pg.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A pixel site makes every 302 name its click id (`dl_click`). */
const addPixelSite = (prisma: PrismaService, organizationId: string) =>
  prisma.pixelSite.create({ data: { organizationId, name: 'Site', domain: 'example.com', siteKey: `dlp_${randomUUID().replace(/-/g, '')}` } });
const clickIdOf = (res: IncomingMessage) => (res.statusCode === 302 && res.headers.location ? new URL(res.headers.location).searchParams.get('dl_click') : null);

runBench(main);
