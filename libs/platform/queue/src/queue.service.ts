import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { createIORedisClient, JobsOptions, Queue, QueueOptions, RedisConnection } from 'bullmq';
import Redis, { ClusterNode, RedisOptions } from 'ioredis';
import { withTimeout } from '@dl/platform/async';
import { clusterNodes, createCluster } from '@dl/platform/redis';
import { AppConfig } from '@dl/platform/config';
import { JobName, JobPayload, QueueName } from './jobs';

/** Job defaults in one place: retries with exponential backoff, bounded history. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000, age: 3600 },
  removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
};

/** Marks BullMQ connection options that must become an ioredis Cluster (see the factory below). */
const CLUSTER_NODES = 'dlClusterNodes';

/**
 * BullMQ creates its own connections (a client per queue, a blocking one per worker) from the
 * options below and closes them itself. In cluster mode the options carry the seed nodes and this
 * factory makes them a Cluster; otherwise it builds the same ioredis client BullMQ would.
 */
RedisConnection.clientFactory = (opts: RedisOptions) => {
  const { url, [CLUSTER_NODES]: nodes, ...rest } = opts as RedisOptions & { url?: string; [CLUSTER_NODES]?: ClusterNode[] };
  if (nodes) {
    const cluster = createCluster(nodes, rest);
    return createIORedisClient(cluster as unknown as Redis);
  }
  return createIORedisClient(url ? new Redis(url, rest) : new Redis(rest));
};

/**
 * The BullMQ key prefix. In cluster mode it is one hash tag (`{dl:bull}`): BullMQ's scripts touch
 * several keys of a queue at once, which must share a slot (docs/decisions/platform.md, "Hash tags").
 */
export function bullPrefix(config: Pick<AppConfig, 'REDIS_PREFIX' | 'REDIS_CLUSTER_NODES'>): string {
  return clusterNodes(config) ? `{${config.REDIS_PREFIX}:bull}` : `${config.REDIS_PREFIX}:bull`;
}

/** BullMQ connection options for this app's Redis (or cluster) and key prefix. */
export function bullOptions(config: AppConfig): QueueOptions {
  const nodes = clusterNodes(config);
  return {
    connection: {
      ...(nodes ? { [CLUSTER_NODES]: nodes } : { url: config.REDIS_URL }),
      maxRetriesPerRequest: null,
      enableOfflineQueue: true,
      connectTimeout: 2000,
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
    } as unknown as QueueOptions['connection'],
    prefix: bullPrefix(config),
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  };
}

export class QueueTimeoutError extends Error {
  constructor(queue: string) {
    super(`Queue "${queue}" did not accept the job in time`);
  }
}

/** `added`, bounded by `timeoutMs` when given (QueueTimeoutError, an outage of Redis: `isInfraError`). */
function accepted<T>(added: Promise<T>, timeoutMs: number | undefined, queue: string): Promise<T> {
  return timeoutMs ? withTimeout(added, timeoutMs, () => new QueueTimeoutError(queue)) : added;
}

export interface AddOptions extends JobsOptions {
  /** Give up (reject with QueueTimeoutError) after this many ms, e.g. when Redis is down. */
  timeoutMs?: number;
}

/** The one producer: typed `add`/`addBulk` for every queue of the registry. */
@Injectable()
export class JobQueue {
  constructor(private readonly moduleRef: ModuleRef) {}

  queue(name: QueueName): Queue {
    return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
  }

  async add<Q extends QueueName, N extends JobName<Q>>(
    queue: Q,
    name: N,
    payload: JobPayload<Q, N>,
    { timeoutMs, ...opts }: AddOptions = {},
  ): Promise<void> {
    await accepted(this.queue(queue).add(name, payload, opts), timeoutMs, queue);
  }

  async addBulk<Q extends QueueName, N extends JobName<Q>>(
    queue: Q,
    name: N,
    jobs: Array<{ payload: JobPayload<Q, N>; opts?: JobsOptions }>,
    timeoutMs?: number,
  ): Promise<void> {
    if (!jobs.length) return;
    await accepted(
      this.queue(queue).addBulk(jobs.map((j) => ({ name, data: j.payload, opts: j.opts }))),
      timeoutMs,
      queue,
    );
  }
}
