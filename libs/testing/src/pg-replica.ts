import { execFile } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { AppConfig } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { testConfig } from './config';
import { flushPrefix } from './harness';
import { freePort, postgresVersion, PrivatePostgres } from './private-servers';

const run = promisify(execFile);

/** Runs a PostgreSQL binary as the `postgres` user (the server refuses to run as root). */
async function asPostgres(bin: string, args: string[]): Promise<string> {
  const path = `/usr/lib/postgresql/${postgresVersion()}/bin/${bin}`;
  const root = process.getuid?.() === 0;
  const { stdout } = await (root ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args));
  return stdout;
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A streaming replica of a PRIVATE primary (never the shared 5432 server): `pg_basebackup -R`
 * (streamed WAL, `standby.signal` and `primary_conninfo` written by -R) into a postgres-owned
 * temporary directory, a minimal `postgresql.conf`/`pg_hba.conf` (the Debian cluster's live in
 * /etc and are not in the backup), started with `pg_ctl` on another free loopback port, ready
 * when it is in recovery and has replayed the primary's WAL. Stopped by the postmaster's PID.
 */
export class PgReplica {
  private constructor(
    readonly primary: PrivatePostgres,
    readonly dir: string,
    readonly port: number,
  ) {}

  static async create(primary: PrivatePostgres): Promise<PgReplica> {
    const dir = mkdtempSync(join(tmpdir(), 'dl-replica-'));
    const postgres = statSync(`/var/lib/postgresql`);
    if (process.getuid?.() === 0) chownSync(dir, postgres.uid, postgres.gid);
    chmodSync(dir, 0o700);
    const replica = new PgReplica(primary, dir, await freePort());
    try {
      await asPostgres('pg_basebackup', [
        '-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres',
        '-D', dir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync',
      ]);
      const conf = [
        `port = ${replica.port}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${dir}'`,
        'hot_standby = on',
        'hot_standby_feedback = on',
        'fsync = off',
        `hba_file = '${dir}/pg_hba.conf'`,
        `ident_file = '${dir}/pg_ident.conf'`,
        '',
      ].join('\n');
      writeFileSync(join(dir, 'postgresql.conf'), conf);
      writeFileSync(join(dir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
      writeFileSync(join(dir, 'pg_ident.conf'), '');
      if (process.getuid?.() === 0) {
        for (const f of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) chownSync(join(dir, f), postgres.uid, postgres.gid);
      }
      await replica.start();
      return replica;
    } catch (err) {
      await replica.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** The postmaster's PID (first line of postmaster.pid), or null when it is not running. */
  get pid(): number | null {
    try {
      const pid = Number(readFileSync(join(this.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return pid > 0 && alive(pid) ? pid : null;
    } catch {
      return null;
    }
  }

  async start(): Promise<void> {
    await asPostgres('pg_ctl', ['-D', this.dir, '-l', join(this.dir, 'server.log'), '-w', '-t', '60', 'start']);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await query<{ r: boolean }>(this.url(), 'SELECT pg_is_in_recovery() AS r').catch(() => []);
      if (rows[0]?.r === true) break;
      if (Date.now() > deadline) throw new Error(`replica on ${this.port} not in recovery after 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await this.caughtUp();
    await this.streaming();
  }

  /** Waits until the WAL receiver streams from the primary. */
  async streaming(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await query<{ status: string }>(this.url(), 'SELECT status FROM pg_stat_wal_receiver').catch(() => []);
      if (rows[0]?.status === 'streaming') return;
      if (Date.now() > deadline) throw new Error(`replica on ${this.port} not streaming after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private conninfo: string | null = null;

  /**
   * Cuts the replica off the primary while it keeps answering (its data then only gets older):
   * `primary_conninfo` emptied and reloaded, so the WAL receiver stops. `reconnect` restores it.
   */
  async disconnect(): Promise<void> {
    const [{ primary_conninfo: conninfo }] = await query<{ primary_conninfo: string }>(this.url(), 'SHOW primary_conninfo');
    this.conninfo = conninfo;
    await query(this.url(), "ALTER SYSTEM SET primary_conninfo = ''");
    await query(this.url(), 'SELECT pg_reload_conf()');
    const deadline = Date.now() + 30_000;
    while ((await query(this.url(), 'SELECT 1 FROM pg_stat_wal_receiver')).length) {
      if (Date.now() > deadline) throw new Error(`replica on ${this.port} still receiving 30 s after disconnect`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async reconnect(): Promise<void> {
    if (this.conninfo === null) return;
    await query(this.url(), `ALTER SYSTEM SET primary_conninfo = '${this.conninfo.replace(/'/g, "''")}'`);
    await query(this.url(), 'SELECT pg_reload_conf()');
    this.conninfo = null;
    await this.streaming();
    await this.caughtUp();
  }

  /**
   * Waits until the replica has replayed everything the primary had written when called. The
   * insert position, not the write position: the private primary runs with synchronous_commit=off,
   * so a commit can sit in WAL buffers past pg_current_wal_lsn() (a test then read a table the
   * replica had not seen yet).
   */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const [{ lsn }] = await query<{ lsn: string }>(this.primary.url(), 'SELECT pg_current_wal_insert_lsn()::text AS lsn');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows = await query<{ ok: boolean }>(
        this.url(),
        `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS ok`,
      ).catch(() => []);
      if (rows[0]?.ok) return;
      if (Date.now() > deadline) throw new Error(`replica on ${this.port} did not replay ${lsn} in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Holds replay (the replica keeps answering with what it had): makes replica reads observable. */
  async pauseReplay(): Promise<void> {
    await query(this.url(), 'SELECT pg_wal_replay_pause()');
  }

  async resumeReplay(): Promise<void> {
    await query(this.url(), 'SELECT pg_wal_replay_resume()');
  }

  /** Stops the replica by its postmaster's PID (SIGINT: fast shutdown; SIGQUIT: immediate, no clean exit). */
  async stop(signal: 'SIGINT' | 'SIGQUIT' = 'SIGINT'): Promise<void> {
    const pid = this.pid;
    if (!pid) return;
    process.kill(pid, signal);
    const deadline = Date.now() + 30_000;
    while (alive(pid)) {
      if (Date.now() > deadline) throw new Error(`replica postmaster ${pid} still running 30 s after ${signal}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Stops it and removes its directory. */
  async drop(): Promise<void> {
    await this.stop().catch(() => this.stop('SIGQUIT'));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface ReplicaEnv {
  pg: PrivatePostgres;
  replica: PgReplica;
  /** DATABASE_URL on the private primary, DATABASE_READ_URL on its replica. */
  config: AppConfig;
  /** A Prisma client on the primary, for arranging and asserting. */
  prisma: PrismaService;
  teardown(): Promise<void>;
}

/**
 * A private primary (migrated database `dl`) with a streaming replica, and the shared Redis
 * under its own prefix. About 15 s to make on a busy machine.
 */
export async function createReplicaEnv(overrides: Record<string, string> = {}): Promise<ReplicaEnv> {
  const pg = await PrivatePostgres.create();
  let replica: PgReplica | undefined;
  try {
    const url = await pg.createDatabase();
    replica = await PgReplica.create(pg);
    const config = testConfig(url, { DATABASE_READ_URL: replica.url('dl'), ...overrides });
    const prisma = new PrismaService(config);
    const made = replica;
    return {
      pg,
      replica: made,
      config,
      prisma,
      teardown: async () => {
        await prisma.$disconnect().catch(() => undefined);
        await flushPrefix(config.REDIS_URL, config.REDIS_PREFIX).catch(() => undefined);
        await made.drop();
        await pg.drop();
      },
    };
  } catch (err) {
    await replica?.drop();
    await pg.drop();
    throw err;
  }
}
