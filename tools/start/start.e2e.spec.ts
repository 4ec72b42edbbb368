/**
 * `npm start` on a bare machine (decisions §19): no DATABASE_URL/REDIS_URL
 * and nothing listening at the default Postgres and Redis addresses (moved to free
 * ports here with DL_DEFAULT_PG_PORT/DL_DEFAULT_REDIS_PORT, so the shared servers on
 * 5432/6379 are not seen), the apps on free ports, var/ in a temporary directory.
 * Runs what `npm start` runs after `npm run db:generate` (regenerating the Prisma
 * client here would rewrite files other test files are loading).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { answers } from './services';

const root = join(__dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

function start(env: NodeJS.ProcessEnv, args: string[] = []): Run {
  const child = spawn(process.execPath, ['tools/scripts/run.js', 'tools/start.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exit };
}

/** The pid of the child of `parent` whose command line contains `needle` (from /proc). */
function childPid(parent: number, needle: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

async function until(run: Run, what: RegExp, ms: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const m = run.output().match(what);
    if (m) return m;
    if (run.child.exitCode !== null) throw new Error(`npm start exited (${run.child.exitCode}) before ${what}:\n${run.output()}`);
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms / 1000} s:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stop(run: Run): Promise<number | null> {
  if (run.child.exitCode !== null) return run.child.exitCode;
  run.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 60_000)));
  const code = await Promise.race([run.exit, timeout]);
  clearTimeout(timer);
  if (code === 'timeout') {
    run.child.kill('SIGKILL');
    throw new Error(`npm start did not stop within 60 s:\n${run.output()}`);
  }
  return code;
}

describe('npm start on a bare machine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dl-start-'));
  // The embedded Postgres runs as an unprivileged user when the test runs as root: it must reach var/.
  chmodSync(dir, 0o755);
  const varDir = join(dir, 'var');
  const runs: Run[] = [];
  let ports: { pg: number; redis: number; api: number; redirect: number; ingest: number; worker: number };
  let baseEnv: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ports = { pg: 0, redis: 0, api: 0, redirect: 0, ingest: 0, worker: 0 };
    const seen = new Set<number>();
    for (const k of Object.keys(ports) as Array<keyof typeof ports>) {
      let p = await freePort();
      while (seen.has(p)) p = await freePort();
      seen.add(p);
      ports[k] = p;
    }
    baseEnv = { ...process.env };
    for (const k of ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'JWT_SECRET', 'SHORT_LINK_BASE_URL', 'LOG_FORMAT', 'LOG_LEVEL', 'NODE_ENV']) delete baseEnv[k];
    Object.assign(baseEnv, {
      NODE_ENV: 'development',
      DL_VAR_DIR: varDir,
      DL_DEFAULT_PG_PORT: String(ports.pg),
      DL_DEFAULT_REDIS_PORT: String(ports.redis),
      API_PORT: String(ports.api),
      REDIRECT_PORT: String(ports.redirect),
      INGEST_PORT: String(ports.ingest),
      WORKER_PORT: String(ports.worker),
      HOST: '127.0.0.1',
      CLICK_FALLBACK_DIR: join(dir, 'click-fallback'),
      MAIL_OUTBOX_DIR: join(dir, 'outbox'),
      // dist/dashboard is the checkout's, shared with other test files: not rebuilt from here.
      DL_SKIP_DASHBOARD_BUILD: '1',
    });
  });

  afterAll(async () => {
    for (const r of runs) await stop(r).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  const appPorts = () => [ports.api, ports.redirect, ports.ingest, ports.worker];

  it('stops with the three ways to get a Redis, and a non-zero exit, when none answers and no redis-server is on PATH', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, join(bin, 'node'));
    const run = start({ ...baseEnv, PATH: bin, DL_VAR_DIR: join(dir, 'var-no-redis'), DL_DEFAULT_REDIS_PORT: String(await freePort()) });
    runs.push(run);
    expect(await run.exit).toBe(1);
    const out = run.output();
    expect(out).toMatch(/No Redis answers at 127\.0\.0\.1:\d+, and there is no redis-server on PATH to start one\./);
    expect(out).toContain('sudo apt install redis-server');
    expect(out).toContain('docker compose up -d redis');
    expect(out).toContain('REDIS_URL=redis://host:6379 npm start');
    // Nothing was started in vain.
    expect(existsSync(join(dir, 'var-no-redis', 'postgres'))).toBe(false);
    expect(await answers(ports.pg)).toBe(false);
  }, 60_000);

  it('starts an embedded Postgres and redis-server, the four apps and a demo with history; stops everything on SIGTERM', async () => {
    expect(await answers(ports.pg)).toBe(false);
    expect(await answers(ports.redis)).toBe(false);
    const t0 = Date.now();
    const run = start(baseEnv);
    runs.push(run);
    const key = (await until(run, /Demo API key\s+(dl_[0-9a-f]+)/, 240_000))[1];
    const cold = (Date.now() - t0) / 1000;
    const out = run.output();
    expect(out).toContain(`started the embedded one there (data in ${join(varDir, 'postgres')}`);
    expect(out).toMatch(/started \S*redis-server there/);
    expect(out).toMatch(/demo history: 8 links, [\d,]+ clicks over 30 days/);
    // Human lines, not JSON, and no route mapping at info.
    expect(out).toMatch(/INFO \(api\): api listening/);
    expect(out).not.toMatch(/Mapped \{/);
    expect(out).not.toMatch(/^\{"level"/m);
    for (const app of ['api', 'redirect', 'ingest', 'worker']) expect(out).toContain(`http://localhost:${ports[app as 'api']}`);

    for (const p of appPorts()) {
      const res = await fetch(`http://127.0.0.1:${p}/health`);
      expect(res.status).toBe(200);
    }
    // The dashboard line appears exactly when the api serves it.
    const app = await fetch(`http://127.0.0.1:${ports.api}/app`);
    await app.arrayBuffer();
    expect(out.includes(`dashboard  http://localhost:${ports.api}/app`)).toBe(app.status === 200);
    const auth = { Authorization: `Bearer ${key}` };
    const api = `http://127.0.0.1:${ports.api}`;
    const links = (await (await fetch(`${api}/api/links`, { headers: auth })).json()) as Array<{ id: string; clickCount: number }>;
    expect(links).toHaveLength(8);
    const busiest = [...links].sort((a, b) => b.clickCount - a.clickCount)[0];
    const analytics = await fetch(`${api}/api/analytics/links/${busiest.id}?days=30`, { headers: auth });
    expect(analytics.status).toBe(200);
    const summary = (await analytics.json()) as { totalClicks: number; clicksByDate: unknown[]; clicksByCountry: unknown[] };
    expect(summary.totalClicks).toBeGreaterThan(0);
    expect(summary.clicksByCountry.length).toBeGreaterThan(0);

    // The banner's curl works as printed (its JSON body), and the new link redirects.
    const body = out.match(/-d '(\{.*\})'/)![1];
    const created = await fetch(`${api}/api/links`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body });
    expect(created.status).toBe(201);
    const link = (await created.json()) as { short_code: string; short_url: string };
    expect(link.short_url).toBe(`http://localhost:${ports.redirect}/${link.short_code}`);
    const visit = await fetch(`http://127.0.0.1:${ports.redirect}/${link.short_code}`, { redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toMatch(/^https:\/\/example\.com\/hello\?dl_click=/);

    // The worker runs below the redirect's CPU priority (its runtime profile, tools/scripts/runtime-profile.js).
    const workerPid = childPid(run.child.pid!, 'apps/worker/src/main.ts');
    const redirectPid = childPid(run.child.pid!, 'apps/redirect/src/main.ts');
    expect(workerPid).not.toBeNull();
    expect(redirectPid).not.toBeNull();
    expect(getPriority(workerPid!)).toBe(10);
    expect(getPriority(redirectPid!)).toBe(0);

    // A dead app is restarted (after 1 s the first time) while the others keep serving.
    process.kill(redirectPid!, 'SIGKILL');
    await until(run, /redirect exited \(signal SIGKILL\); restarting in 1 s/, 10_000);
    const back = Date.now() + 120_000;
    let restarted: number | null = null;
    while (Date.now() < back) {
      restarted = childPid(run.child.pid!, 'apps/redirect/src/main.ts');
      const ok = restarted !== null && restarted !== redirectPid && (await fetch(`http://127.0.0.1:${ports.redirect}/health`).then((r) => r.ok, () => false));
      if (ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(restarted).not.toBeNull();
    expect(restarted).not.toBe(redirectPid);
    expect((await fetch(`http://127.0.0.1:${ports.redirect}/${link.short_code}`, { redirect: 'manual' })).status).toBe(302);

    expect(await stop(run)).toBe(0);
    expect(run.output()).toMatch(/stopping postgres[\s\S]*stopping redis[\s\S]*stopped/);
    for (const p of [...appPorts(), ports.pg, ports.redis]) expect(await answers(p)).toBe(false);
    expect(existsSync(join(varDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // Warm start: same data, same key, no second demo history.
    const t1 = Date.now();
    const again = start(baseEnv);
    runs.push(again);
    const key2 = (await until(again, /Demo API key\s+(dl_[0-9a-f]+)/, 240_000))[1];
    const warm = (Date.now() - t1) / 1000;
    expect(key2).toBe(key);
    expect(again.output()).not.toContain('demo history');
    expect(again.output()).not.toContain('created a Postgres data directory');
    const after = (await (await fetch(`${api}/api/links`, { headers: auth })).json()) as unknown[];
    expect(after).toHaveLength(9);
    expect(await stop(again)).toBe(0);
    process.stdout.write(`npm start to four /health: cold ${cold.toFixed(1)} s, warm ${warm.toFixed(1)} s\n`);
  }, 600_000);

});
