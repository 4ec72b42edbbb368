import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Redis from 'ioredis';
import { freePort } from './private-servers';

const run = promisify(execFile);

export interface ClusterNode {
  port: number;
  pid: number;
  proc: ChildProcess;
}

async function until(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One command on one node, with a fresh connection (no cluster redirection). */
export async function nodeCommand(port: number, ...args: string[]): Promise<unknown> {
  const conn = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  conn.on('error', () => undefined);
  try {
    await conn.connect();
    return await conn.call(args[0], ...args.slice(1));
  } finally {
    conn.disconnect();
  }
}

/**
 * A private Redis Cluster on loopback for tests and benches: `masters` masters with one replica
 * each (6 nodes by default), each a `redis-server --cluster-enabled yes` child process on a free
 * port with its own temporary directory, joined by `redis-cli --cluster create`. Stopped by PID
 * (never by name: other redis-server processes may run on the host). No persistence: a test cluster.
 */
export class PrivateRedisCluster {
  readonly nodes: ClusterNode[] = [];

  private constructor(
    private readonly dir: string,
    private readonly masters: number,
  ) {}

  /** Starts the nodes, creates the cluster and waits until every node says `cluster_state:ok`. */
  static async start({ masters = 3, replicas = 1 }: { masters?: number; replicas?: number } = {}): Promise<PrivateRedisCluster> {
    const cluster = new PrivateRedisCluster(mkdtempSync(join(tmpdir(), 'dl-redis-cluster-')), masters);
    try {
      const ports = new Set<number>();
      // The cluster bus listens on port + 10000: both must be free.
      while (ports.size < masters * (1 + replicas)) {
        const p = await freePort();
        if (p < 55535 && !ports.has(p)) ports.add(p);
      }
      for (const port of ports) cluster.spawnNode(port);
      await Promise.all(cluster.nodes.map((n) => until(`redis cluster node ${n.port}`, 10_000, async () => (await nodeCommand(n.port, 'PING')) === 'PONG')));
      await run('redis-cli', [
        '--cluster', 'create', ...cluster.nodes.map((n) => `127.0.0.1:${n.port}`),
        '--cluster-replicas', String(replicas), '--cluster-yes',
      ], { timeout: 30_000 });
      await cluster.waitHealthy();
      return cluster;
    } catch (err) {
      await cluster.stop();
      throw err;
    }
  }

  private spawnNode(port: number): void {
    const dir = join(this.dir, String(port));
    mkdirSync(dir, { recursive: true });
    const proc = spawn(
      'redis-server',
      [
        '--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes',
        '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-node-timeout', '2000',
        '--save', '', '--appendonly', 'no', '--dir', dir, '--loglevel', 'warning',
      ],
      { stdio: 'ignore' },
    );
    proc.on('error', () => undefined);
    this.nodes.push({ port, pid: proc.pid ?? -1, proc });
  }

  /** `REDIS_CLUSTER_NODES` for the apps: every node, comma-separated `127.0.0.1:port`. */
  get nodeList(): string {
    return this.nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
  }

  /** Waits until every live node reports `cluster_state:ok` and the live nodes are `masters` masters and their replicas. */
  async waitHealthy(timeoutMs = 30_000): Promise<void> {
    const live = this.nodes.filter((n) => n.proc.exitCode === null && n.proc.signalCode === null);
    await until('redis cluster state ok', timeoutMs, async () => {
      for (const n of live) {
        const info = String(await nodeCommand(n.port, 'CLUSTER', 'INFO'));
        if (!info.includes('cluster_state:ok')) return false;
      }
      // Replicas are told their master after the slots are assigned: wait until every node has its role.
      const roles = [...(await this.roles()).values()].filter((r) => !r.failed);
      return roles.filter((r) => r.role === 'master').length === this.masters && roles.length === live.length;
    });
  }

  /** Roles by port, from a live node's `CLUSTER NODES` (`master` or the master's port for a replica). */
  async roles(): Promise<Map<number, { role: 'master' | 'replica'; masterPort?: number; failed: boolean }>> {
    const live = this.nodes.find((n) => n.proc.exitCode === null && n.proc.signalCode === null);
    if (!live) throw new Error('no live cluster node');
    const text = String(await nodeCommand(live.port, 'CLUSTER', 'NODES'));
    const byId = new Map<string, number>();
    const rows = text.trim().split('\n').map((l) => l.split(' '));
    for (const r of rows) byId.set(r[0], Number(r[1].split('@')[0].split(':')[1]));
    const out = new Map<number, { role: 'master' | 'replica'; masterPort?: number; failed: boolean }>();
    for (const r of rows) {
      const port = byId.get(r[0])!;
      const flags = r[2].split(',');
      const failed = flags.includes('fail') || flags.includes('fail?');
      if (flags.includes('master')) out.set(port, { role: 'master', failed });
      else out.set(port, { role: 'replica', masterPort: byId.get(r[3]), failed });
    }
    return out;
  }

  /** The master that serves `key`'s slot. */
  async masterOf(key: string): Promise<number> {
    const live = this.nodes.find((n) => n.proc.exitCode === null)!;
    const slot = Number(await nodeCommand(live.port, 'CLUSTER', 'KEYSLOT', key));
    const slots = (await nodeCommand(live.port, 'CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
    const range = slots.find(([from, to]) => slot >= from && slot <= to);
    if (!range) throw new Error(`slot ${slot} unassigned`);
    return Number(range[2][1]);
  }

  /** A replica of the master on `masterPort`. */
  async replicaOf(masterPort: number): Promise<number> {
    for (const [port, r] of await this.roles()) if (r.role === 'replica' && r.masterPort === masterPort && !r.failed) return port;
    throw new Error(`no replica of ${masterPort}`);
  }

  /** A manual failover: `CLUSTER FAILOVER` on the replica (it becomes master, its master a replica). */
  async failover(replicaPort: number): Promise<void> {
    await nodeCommand(replicaPort, 'CLUSTER', 'FAILOVER');
    await until(`failover to ${replicaPort}`, 15_000, async () => (await this.roles()).get(replicaPort)?.role === 'master');
  }

  /** SIGKILL of one node by its PID (its replica is promoted after the node timeout). */
  kill(port: number): void {
    const node = this.nodes.find((n) => n.port === port);
    if (node && node.proc.exitCode === null) node.proc.kill('SIGKILL');
  }

  /** Stops every node by PID and removes the temporary directory. */
  async stop(): Promise<void> {
    await Promise.all(
      this.nodes.map(
        (n) =>
          new Promise<void>((resolve) => {
            if (n.proc.exitCode !== null || n.proc.signalCode !== null) return resolve();
            n.proc.once('exit', () => resolve());
            n.proc.kill('SIGKILL');
          }),
      ),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
