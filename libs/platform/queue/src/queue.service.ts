import { getQueueToken } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { JobsOptions, Queue, QueueOptions } from 'bullmq';
import { AppConfig } from '@dl/platform/config';
import { JobName, JobPayload, QueueName } from './jobs';

/** Job defaults in one place: retries with exponential backoff, bounded history. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000, age: 3600 },
  removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
};

/** BullMQ connection options for this app's Redis and key prefix. */
export function bullOptions(config: AppConfig): QueueOptions {
  return {
    connection: {
      url: config.REDIS_URL,
      maxRetriesPerRequest: null,
      enableOfflineQueue: true,
      connectTimeout: 2000,
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
    },
    prefix: `${config.REDIS_PREFIX}:bull`,
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  };
}

export class QueueTimeoutError extends Error {
  constructor(queue: string) {
    super(`Queue "${queue}" did not accept the job in time`);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number | undefined, queue: string): Promise<T> {
  if (!ms) return p;
  let timer: NodeJS.Timeout | undefined;
  // The timer is cleared once the queue answers (it used to fire, and build an error, for every call).
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new QueueTimeoutError(queue)), ms).unref();
    }),
  ]).finally(() => clearTimeout(timer));
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
    await withTimeout(this.queue(queue).add(name, payload, opts), timeoutMs, queue);
  }

  async addBulk<Q extends QueueName, N extends JobName<Q>>(
    queue: Q,
    name: N,
    jobs: Array<{ payload: JobPayload<Q, N>; opts?: JobsOptions }>,
    timeoutMs?: number,
  ): Promise<void> {
    if (!jobs.length) return;
    await withTimeout(
      this.queue(queue).addBulk(jobs.map((j) => ({ name, data: j.payload, opts: j.opts }))),
      timeoutMs,
      queue,
    );
  }
}
