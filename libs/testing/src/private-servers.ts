import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { Client } from 'pg';
import { migrateDeploy } from '@dl/platform/db';

const run = promisify(execFile);

/** A free TCP port on loopback (never the shared 5432/6379, never 3000-3003). */
export async function freePort(): Promise<number> {
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

async function until(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The PostgreSQL major version whose cluster tools are installed (`/etc/postgresql/<version>`). */
export function postgresVersion(): string {
  const versions = readdirSync('/etc/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('no PostgreSQL cluster tools (/etc/postgresql is empty)');
  return versions[0];
}

/**
 * A private PostgreSQL cluster on a free loopback port, for outage tests and the chaos bench (the
 * shared server on 5432 is everyone's and is never stopped). Made with `pg_createcluster`
 * (trust auth, no fsync: a test cluster), started and stopped with `pg_ctlcluster`, dropped at
 * the end. `stop('fast')` is the administrator shutdown that sends 57P01 to every session.
 */
export class PrivatePostgres {
  private constructor(
    readonly version: string,
    readonly name: string,
    readonly port: number,
  ) {}

  static async create(): Promise<PrivatePostgres> {
    const pg = new PrivatePostgres(postgresVersion(), `dl_${process.pid}_${randomBytes(3).toString('hex')}`, await freePort());
    await run('pg_createcluster', [
      pg.version, pg.name, '--port', String(pg.port),
      '-o', 'fsync=off', '-o', 'synchronous_commit=off', '-o', 'full_page_writes=off',
      '--', '--auth=trust',
    ]);
    await pg.start();
    return pg;
  }

  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Creates a database with every migration applied; returns its URL. */
  async createDatabase(database = 'dl'): Promise<string> {
    const client = new Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${database}"`);
    } finally {
      await client.end();
    }
    await migrateDeploy(this.url(database));
    return this.url(database);
  }

  async start(): Promise<void> {
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', this.version, this.name, 'start']);
    await until(`postgres ${this.name}`, 15_000, async () => {
      const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  }

  /** `fast`: sessions are terminated (57P01); `immediate`: no clean shutdown (crash recovery at start). */
  async stop(mode: 'smart' | 'fast' | 'immediate' = 'fast'): Promise<void> {
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', this.version, this.name, 'stop', '-m', mode]);
  }

  async drop(): Promise<void> {
    await run('pg_dropcluster', ['--stop', this.version, this.name]).catch(() => undefined);
  }
}

/**
 * A private `redis-server` child process on a free loopback port (the shared Redis on 6379 is
 * never stopped or flushed), stopped by its PID. `appendonly` (fsync on every write) keeps what
 * Redis acknowledged across a SIGKILL; without it a restart starts empty.
 */
export class PrivateRedis {
  private proc: ChildProcess | null = null;

  private constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly appendonly: boolean,
  ) {}

  static async create(dir: string, { appendonly = true }: { appendonly?: boolean } = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), dir, appendonly);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  async start(): Promise<void> {
    if (this.proc && this.proc.exitCode === null) return;
    const persistence = this.appendonly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
    this.proc = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', this.dir, '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    await until(`redis-server on ${this.port}`, 5_000, async () => {
      const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    });
  }

  /** Stops the server by PID: SIGKILL (the hardest way for Redis to go away) or SIGTERM. */
  async stop(signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    const proc = this.proc;
    this.proc = null;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });
  }
}

export interface AppProcess {
  proc: ChildProcess;
  url: string;
  port: number;
  /** Everything the process wrote (pino lines), for assertions on logs. */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Sends a signal to this process (by PID) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

const ROOT = `${__dirname}/../../..`;

/**
 * Starts an app's production entry (`node tools/scripts/run.js apps/<app>/src/main.ts`) as a child
 * process on a free loopback port, with `env` (a test config's variables), and waits until it
 * answers HTTP. Stopped by its PID.
 *
 * The app's runtime profile (tools/scripts/runtime-profile.js) gives its node flags and environment.
 * `production`: also its priority, in a session of its own, as `npm start` runs it (benchmarks of
 * apps sharing the cores). Tests leave it off: every app at the test run's priority, in its session.
 */
export async function spawnApp(
  app: 'api' | 'redirect' | 'ingest' | 'worker',
  env: Record<string, string>,
  timeoutMs = 60_000,
  { production = false }: { production?: boolean } = {},
): Promise<AppProcess> {
  const port = await freePort();
  const portVar = { api: 'API_PORT', redirect: 'REDIRECT_PORT', ingest: 'INGEST_PORT', worker: 'WORKER_PORT' }[app];
  // DL_NODE_ARGS: node flags NODE_OPTIONS refuses (benchmarks pass `--cpu-prof --cpu-prof-dir=<dir>`).
  const nodeArgs = env.DL_NODE_ARGS ? env.DL_NODE_ARGS.split(' ') : [];
  const { appCommand, lowerAutogroup } = require(`${ROOT}/tools/scripts/runtime-profile.js`) as typeof import('../../../tools/scripts/runtime-profile');
  const entry = [...nodeArgs, 'tools/scripts/run.js', `apps/${app}/src/main.ts`];
  const start = appCommand(app, entry, { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env, [portVar]: String(port) }, { priority: production });
  const proc = spawn(start.command, start.args, { cwd: ROOT, env: start.env, stdio: ['ignore', 'pipe', 'pipe'], detached: production });
  if (production && proc.pid) lowerAutogroup(proc.pid, app);
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  await until(`${app} on ${port}`, timeoutMs, async () => {
    if (gone) throw new Error(`${app} exited: ${out.slice(-2000)}`);
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return true;
  }).catch((err: unknown) => {
    proc.kill('SIGKILL');
    throw new Error(`${String(err)}\n${out.slice(-2000)}`);
  });
  return {
    proc,
    url,
    port,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (!gone) proc.kill(signal);
      return exited;
    },
  };
}

/** The environment variables of a config made by `testConfig` (to start a production entry with it). */
export function configEnv(config: object): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined || value === null || typeof value === 'object' || typeof value === 'function') continue;
    if (/^[A-Z][A-Z0-9_]*$/.test(key)) env[key] = String(value);
  }
  return env;
}
