import { Global, Inject, Injectable, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import Redis, { Cluster, ClusterNode, RedisOptions } from 'ioredis';
import { withTimeout } from '@dl/platform/async';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';

/** Options shared by every Redis connection: fail fast instead of queueing commands forever. */
export function redisOptions(extra: RedisOptions = {}): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...extra,
  };
}

/** `REDIS_CLUSTER_NODES` as ioredis seed nodes, or null in single-server mode. */
export function clusterNodes(config: Pick<AppConfig, 'REDIS_CLUSTER_NODES'>): ClusterNode[] | null {
  const raw = config.REDIS_CLUSTER_NODES?.trim();
  if (!raw) return null;
  return raw.split(',').map((entry) => {
    const [host, port] = entry.trim().split(':');
    return { host, port: Number(port) };
  });
}

/**
 * An ioredis Cluster with the same fail-fast behaviour as one server's connection: connection
 * options go to every node, the retry strategy becomes the cluster's, and a command that meets a
 * failover (MOVED, TRYAGAIN, CLUSTERDOWN) is retried after a short wait instead of failing.
 */
export function createCluster(nodes: ClusterNode[], options: RedisOptions): Cluster {
  const { enableOfflineQueue, lazyConnect, retryStrategy, enableAutoPipelining, maxRetriesPerRequest, ...node } = options;
  return new Cluster(nodes, {
    enableOfflineQueue,
    lazyConnect,
    enableAutoPipelining,
    clusterRetryStrategy: retryStrategy ? (times) => retryStrategy(times) ?? null : undefined,
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    retryDelayOnMoved: 0,
    maxRedirections: 16,
    // Slot map refreshed quickly after a failover so commands stop meeting the dead master.
    slotsRefreshTimeout: 2000,
    slotsRefreshInterval: 5000,
    redisOptions: { ...node, maxRetriesPerRequest },
  });
}

/**
 * The one Redis client factory of the apps: a connection to REDIS_URL, or (REDIS_CLUSTER_NODES
 * set) an ioredis Cluster. Typed as `Redis`: Cluster answers the same commands, scripts
 * (`defineCommand`), pub/sub and `duplicate()`; what differs (SCAN over every master, keys of one
 * command in one slot) goes through `scanKeys` and the hash-tagged key helpers.
 */
export function createRedisClient(config: Pick<AppConfig, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>, extra: RedisOptions = {}): Redis {
  const nodes = clusterNodes(config);
  if (nodes) return createCluster(nodes, redisOptions(extra)) as unknown as Redis;
  return new Redis(config.REDIS_URL, redisOptions(extra));
}

/** True for an ioredis Cluster client. */
export function isCluster(client: unknown): boolean {
  return (client as Cluster).isCluster === true;
}

/**
 * Every key matching `pattern` (SCAN with MATCH, never KEYS), on one server or on every master of
 * a cluster (SCAN is per node). Calls `onBatch` per page.
 */
export async function scanKeys(client: Redis, pattern: string, onBatch: (keys: string[]) => Promise<void>, count = 500): Promise<void> {
  const targets: Redis[] = isCluster(client) ? (client as unknown as Cluster).nodes('master') : [client];
  for (const node of targets) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
      cursor = next;
      if (keys.length) await onBatch(keys);
    } while (cursor !== '0');
  }
}

/**
 * Resolves when the client is ready or after `timeoutMs`, whichever is first (never rejects). A
 * fail-fast client (no offline queue) refuses commands until then; a cluster client is ready
 * only once it has the slot map, a few round trips later than one server's.
 */
export function whenReady(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    client.once('ready', done);
  });
}

/**
 * The app's general-purpose Redis connection (caches, counters, pub/sub publishing).
 * Keys must go through `key()` (or `slotKey()` when a script or MULTI touches several keys) so
 * tests (and tenants of one Redis) never collide.
 */
@Injectable()
export class RedisService implements OnModuleInit, OnModuleDestroy {
  readonly client: Redis;
  readonly prefix: string;
  /** Redis Cluster mode (REDIS_CLUSTER_NODES). */
  readonly cluster: boolean;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.prefix = config.REDIS_PREFIX;
    this.cluster = clusterNodes(config) !== null;
    this.client = createRedisClient(config);
    // Errors are reported by health checks and callers; an unhandled 'error' event would crash.
    this.client.on('error', () => undefined);
  }

  /** Waits (briefly) for the first connection so the app starts ready; never fails boot. */
  async onModuleInit(): Promise<void> {
    await whenReady(this.client, this.cluster ? 5000 : 2000);
  }

  key(...parts: string[]): string {
    return `${this.prefix}:${parts.join(':')}`;
  }

  /**
   * A key that must share a cluster slot with every other key of the same `tag` (the keys of one
   * Lua script or MULTI): `prefix:{tag}:parts` in cluster mode. On one server it is exactly
   * `key(...parts)`, so a single-server deployment keeps its key layout.
   */
  slotKey(tag: string, ...parts: string[]): string {
    return this.cluster ? `${this.prefix}:{${tag}}:${parts.join(':')}` : this.key(...parts);
  }

  /** A new dedicated connection (for subscribers or blocking commands). Caller closes it. */
  duplicate(extra: RedisOptions = {}): Redis {
    const conn = createRedisClient(this.config, extra);
    conn.on('error', () => undefined);
    return conn;
  }

  /**
   * A dedicated connection subscribed to `channel`, calling `onMessage` with each message; it
   * queues the subscription while Redis is away and resubscribes when it is back. Waits at most 2 s
   * for it, then calls `onDelay` and goes on (the caller's fallback covers the gap). Caller disconnects it.
   */
  async subscribe(channel: string, onMessage: (message: string) => void, onDelay: () => void): Promise<Redis> {
    const sub = this.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    sub.on('message', (_channel: string, message: string) => onMessage(message));
    try {
      await withTimeout(sub.subscribe(channel), 2000);
    } catch {
      onDelay();
    }
    return sub;
  }

  get isReady(): boolean {
    return this.client.status === 'ready';
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}

@Global()
@Module({ providers: [RedisService], exports: [RedisService] })
export class RedisModule {}
