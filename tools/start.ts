/**
 * `npm start`: the whole service on one machine (decisions §19).
 *
 * 1. Postgres: DATABASE_URL if set; else the one answering at 127.0.0.1:5432; else an
 *    embedded Postgres (data in var/postgres). Redis: REDIS_URL if set; else the one at
 *    127.0.0.1:6379; else `redis-server` from PATH (data in var/redis); else a message
 *    with the three ways to get one and exit code 1.
 * 2. Migrations, the demo organization and key, and on first start a small demo
 *    history (`--no-demo` skips it), through the same code as `demo:seed`.
 * 3. api, redirect, ingest and worker as four supervised processes (the production
 *    entry `node tools/scripts/run.js apps/<app>/src/main.ts`), restarted with backoff.
 * 4. One banner when all four answer /health. Ctrl-C (or SIGTERM) stops the apps, then
 *    Redis and Postgres if this started them.
 *
 * Environment: DATABASE_URL, REDIS_URL, API_PORT/REDIRECT_PORT/INGEST_PORT/WORKER_PORT,
 * LOG_FORMAT (pretty by default here outside production), and for tests
 * DL_VAR_DIR (default var/), DL_DEFAULT_PG_PORT (5432), DL_DEFAULT_REDIS_PORT (6379).
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '@dl/platform/config';
import { migrateDeploy } from '@dl/platform/db';
import { createLogger } from '@dl/platform/observability';
import { DemoInfo, demoSeededAt, ensureDemo, markDemoSeeded } from './cli/demo';
import { createSeedContext, demoSeed } from './cli/demo-seed';
import { banner } from './start/banner';
import { answers, noRedisMessage, onPath, Service, startEmbeddedPostgres, startRedisServer } from './start/services';
import { AppSpec, Supervisor, waitForHealth } from './start/supervisor';

const startedAt = Date.now();
const root = join(__dirname, '..');
const env: NodeJS.ProcessEnv = { ...process.env };
const production = env.NODE_ENV === 'production';
if (!production) env.LOG_FORMAT ??= 'pretty';
const varDir = resolve(root, env.DL_VAR_DIR ?? 'var');
const log = createLogger({ LOG_LEVEL: (env.LOG_LEVEL ?? 'info') as 'info', LOG_FORMAT: env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json' }, 'start');

const USAGE = 'usage: npm start [-- --no-demo]';
const args = process.argv.slice(2);
for (const a of args) {
  if (a !== '--no-demo') {
    process.stderr.write(`Unknown option "${a}"\n${USAGE}\n`);
    process.exit(2);
  }
}
const withDemo = !args.includes('--no-demo');

/** Things this process started, stopped in reverse order. */
const services: Service[] = [];
let supervisor: Supervisor | null = null;
let stopping = false;
/** How long the apps get to drain on SIGTERM before SIGKILL: their own limit (SHUTDOWN_TIMEOUT_MS) and a margin. */
let graceMs = 30_000;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    if (supervisor) {
      log.info('stopping the apps');
      await supervisor.stop(graceMs);
    }
    for (const s of [...services].reverse()) {
      log.info(`stopping ${s.name}`);
      await s.stop().catch((err) => log.error({ err }, `${s.name} did not stop cleanly`));
    }
    log.info('stopped');
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) log.warn('already stopping: waiting for the apps, Redis and Postgres to finish');
    else void shutdown(0);
  });
}

function devJwtSecret(): string {
  const file = join(varDir, 'dev-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(varDir, { recursive: true });
  const secret = randomBytes(48).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const port = (name: string, fallback: number) => Number(env[name] ?? fallback);

/** Redis first: without one there is nothing to start, so no Postgres is started in vain. */
async function provideRedis(): Promise<void> {
  if (env.REDIS_URL) return;
  const p = port('DL_DEFAULT_REDIS_PORT', 6379);
  if (await answers(p)) {
    env.REDIS_URL = `redis://127.0.0.1:${p}`;
    return;
  }
  const binary = onPath('redis-server', env.PATH);
  if (!binary) {
    process.stderr.write(`\n${noRedisMessage(p)}\n\n`);
    await shutdown(1);
  }
  const redis = await startRedisServer(binary as string, join(varDir, 'redis'), p, log);
  services.push(redis);
  env.REDIS_URL = redis.url;
  log.info(`no Redis answered at 127.0.0.1:${p}: started ${binary} there (data in ${join(varDir, 'redis')})`);
}

async function providePostgres(): Promise<void> {
  if (env.DATABASE_URL) return;
  const p = port('DL_DEFAULT_PG_PORT', 5432);
  if (await answers(p)) {
    env.DATABASE_URL = `postgresql://postgres@127.0.0.1:${p}/deeplink`;
    return;
  }
  const t = Date.now();
  const pg = await startEmbeddedPostgres(join(varDir, 'postgres'), p, log);
  services.push(pg);
  env.DATABASE_URL = pg.url;
  log.info(`no Postgres answered at 127.0.0.1:${p}: started the embedded one there (data in ${join(varDir, 'postgres')}, ${((Date.now() - t) / 1000).toFixed(1)} s)`);
}

/** The newest modification time of the files under `dir` (0 when there is none). */
function newest(dir: string): number {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Builds the dashboard (apps/dashboard → dist/dashboard, decisions §17) when the
 * repository has the script and the build is older than its sources.
 */
async function buildDashboard(): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const script = ['build:dashboard'].find((s) => pkg.scripts?.[s]);
  if (!script || env.DL_SKIP_DASHBOARD_BUILD === '1') return;
  const built = join(root, 'dist', 'dashboard', 'index.html');
  if (existsSync(built) && statSync(built).mtimeMs > Math.max(newest(join(root, 'apps', 'dashboard')), statSync(join(root, 'package-lock.json')).mtimeMs)) {
    log.debug('dashboard build is up to date');
    return;
  }
  const t = Date.now();
  const npm = env.npm_execpath ? [process.execPath, [env.npm_execpath, 'run', '--silent', script]] : ['npm', ['run', '--silent', script]];
  const output: string[] = [];
  const code = await new Promise<number | null>((res) => {
    const child = spawn(npm[0] as string, npm[1] as string[], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (c: Buffer) => output.push(c.toString()));
    child.stderr.on('data', (c: Buffer) => output.push(c.toString()));
    child.on('error', () => res(null));
    child.on('exit', (c) => res(c));
  });
  if (code === 0) log.info(`dashboard built (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  else log.warn(`the dashboard build failed (npm run ${script}); the apps start without it:\n${output.join('').trim().slice(-2000)}`);
}

/** First start only: a few links, 30 days of clicks, installs and events for the demo organization. */
async function seedDemo(demo: DemoInfo, config: ReturnType<typeof loadConfig>): Promise<void> {
  if (!withDemo || demoSeededAt(varDir, config.DATABASE_URL)) return;
  const t = Date.now();
  const seed = await createSeedContext(config);
  try {
    // Links the user made (or an earlier history whose var/demo.json is gone): leave them alone.
    if ((await seed.prisma.link.count({ where: { organizationId: demo.organization.id } })) > 0) {
      markDemoSeeded(varDir, config.DATABASE_URL);
      return;
    }
    const r = await demoSeed(seed.prisma, seed.pipeline, {
      organizationId: demo.organization.id,
      months: 1,
      days: 30,
      links: 8,
      clicksPerDay: 120,
      progress: false,
    });
    markDemoSeeded(varDir, config.DATABASE_URL);
    log.info(
      `demo history: ${r.links} links, ${r.clicks.toLocaleString('en-US')} clicks over 30 days, ${r.installs} installs, ${r.events.toLocaleString('en-US')} events ` +
        `(${((Date.now() - t) / 1000).toFixed(1)} s; \`npm start -- --no-demo\` skips this on a fresh database)`,
    );
  } finally {
    await seed.app.close();
  }
}

async function dashboardServed(apiPort: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${apiPort}/app`, { signal: AbortSignal.timeout(3000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  if (!production) env.JWT_SECRET ??= devJwtSecret();
  // Short URLs point at the redirect app wherever it listens.
  if (!env.SHORT_LINK_BASE_URL && env.REDIRECT_PORT) env.SHORT_LINK_BASE_URL = `http://localhost:${env.REDIRECT_PORT}`;
  await provideRedis();
  await providePostgres();
  const config = loadConfig(env);
  graceMs = config.SHUTDOWN_TIMEOUT_MS + 5000;
  env.DATABASE_URL = config.DATABASE_URL;
  env.REDIS_URL = config.REDIS_URL;

  const dashboard = buildDashboard();
  const applied = await migrateDeploy(config.DATABASE_URL, { log: (line) => log.debug(`migrate: ${line}`) });
  if (applied.length) log.info(`${applied.length} migration(s) applied`);
  const demo = await ensureDemo(config, root, varDir);
  await seedDemo(demo, config);
  await dashboard;
  if (stopping) return;

  const apps: AppSpec[] = [
    { name: 'api', port: config.API_PORT },
    { name: 'redirect', port: config.REDIRECT_PORT },
    { name: 'ingest', port: config.INGEST_PORT },
    { name: 'worker', port: config.WORKER_PORT },
  ];
  supervisor = new Supervisor(apps, root, env, log);
  supervisor.start();
  if (!(await waitForHealth(apps, 180_000))) {
    log.error('not every app answered /health within 180 s: see the lines above');
    return;
  }
  if (stopping) return;
  const seconds = (Date.now() - startedAt) / 1000;
  const served = await dashboardServed(config.API_PORT);
  const ports = { api: config.API_PORT, redirect: config.REDIRECT_PORT, ingest: config.INGEST_PORT, worker: config.WORKER_PORT };
  if (env.LOG_FORMAT === 'pretty') {
    process.stdout.write(banner({ ports, dashboard: served, demo, seconds, color: Boolean(process.stdout.isTTY) && env.NO_COLOR === undefined }));
  } else {
    log.info(
      {
        urls: Object.fromEntries(Object.entries(ports).map(([k, p]) => [k, `http://localhost:${p}`])),
        dashboard: served ? `http://localhost:${config.API_PORT}/app` : null,
        demo: { email: demo.login.email, organization: demo.organization.slug },
        seconds,
      },
      'ready',
    );
  }
}

main().catch(async (err: unknown) => {
  log.error(err instanceof Error ? err.message : String(err));
  await shutdown(1);
});
