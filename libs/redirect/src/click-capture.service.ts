import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { Batcher } from '@dl/platform/batch';
import { clickBatchJobId, ClickCapturedJob, packClickBatch } from '@dl/platform/click-codec';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService, reportOutage } from '@dl/platform/observability';
import { JobQueue, Queues } from '@dl/platform/queue';
import { ClickFallbackStore } from './click-fallback.store';

export const CAPTURE_LIMITS = {
  /**
   * A batch leaves at most this long after its first click: long enough that a batch under load
   * holds hundreds of clicks, so BullMQ's per-job cost (Job object, JSON + msgpack, one Lua call)
   * is shared by many visits (docs/decisions/redirect.md).
   */
  flushDelayMs: 20,
  /** ...or as soon as it holds this many. */
  batchSize: 500,
  /** An enqueue slower than this is treated as Redis being down (the batch goes to the fallback). */
  enqueueTimeoutMs: 1000,
  /** A replayed chunk may take longer (Redis busy right after a restart); a timeout retries the file. */
  replayTimeoutMs: 5000,
  /** How often the fallback folder is replayed while Redis is up. */
  replayIntervalMs: 1000,
  /** When the disk failed too, the batch stays in memory and is retried after this long. */
  retryDelayMs: 250,
} as const;

/**
 * Click capture at the edge: the redirect hands over the raw facts and moves on. Clicks are
 * batched (20 ms or 500 clicks) into ONE packed `click.batch` job (`packClickBatch`: ioredis
 * holds the payload until Redis answers, so its size is old-space garbage) on the `clicks` queue (job id
 * derived from its click ids, so a re-add of the same batch is a no-op; the consumer stores
 * each click id once whatever the grouping); when Redis is unreachable the clicks are
 * fsync'd to the local fallback and replayed later, again as batch jobs.
 */
@Injectable()
export class ClickCaptureService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ClickCapture');
  private readonly fallback: ClickFallbackStore;
  /** One batch leaves at a time; a batch neither the queue nor the disk took is retried. */
  private readonly batcher = new Batcher<ClickCapturedJob>({
    maxSize: CAPTURE_LIMITS.batchSize,
    maxWaitMs: CAPTURE_LIMITS.flushDelayMs,
    retryDelayMs: CAPTURE_LIMITS.retryDelayMs,
    write: (batch) => this.send(batch),
  });
  private replayTimer: NodeJS.Timeout | null = null;
  private replaying: Promise<void> | null = null;
  private queueConnection: Redis | null = null;

  constructor(
    private readonly jobs: JobQueue,
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.fallback = new ClickFallbackStore(config.CLICK_FALLBACK_DIR);
  }

  async onModuleInit(): Promise<void> {
    await this.fallback.init();
    // BullMQ's connection promise settles only once Redis answers: never wait for it here.
    void this.jobs
      .queue(Queues.clicks)
      .getBackend()
      .client.then((conn) => (this.queueConnection = conn as unknown as Redis))
      .catch(() => undefined);
    this.replayTimer = setInterval(() => void this.replay(), CAPTURE_LIMITS.replayIntervalMs);
    this.replayTimer.unref();
    // Start-up: clicks a previous run left behind go out as soon as the queue is reachable.
    void this.replay();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.replayTimer) clearInterval(this.replayTimer);
    await this.flush();
    await this.replaying;
    await this.fallback.close();
  }

  /** Hands a click over; never waits and never throws. */
  capture(click: ClickCapturedJob): void {
    this.batcher.push(click);
  }

  /** Sends everything buffered (queue, else fallback). Batches leave one at a time. */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  /** Replays the fallback folder when the queue is reachable (one pass at a time). */
  replay(): Promise<void> {
    if (this.replaying || !this.queueReady) return this.replaying ?? Promise.resolve();
    this.replaying = this.fallback
      .replay((jobs) => this.enqueue(jobs, CAPTURE_LIMITS.replayTimeoutMs))
      .then(() => undefined)
      .catch((err: unknown) => this.logger.warn({ err }, 'fallback replay interrupted; will retry'))
      .finally(() => (this.replaying = null));
    return this.replaying;
  }

  private get queueReady(): boolean {
    return this.queueConnection?.status === 'ready';
  }

  private async send(batch: ClickCapturedJob[]): Promise<void> {
    if (this.queueReady) {
      try {
        return await this.enqueue(batch);
      } catch (err) {
        reportOutage('redis', err, 'click enqueue (clicks go to the local fallback)');
      }
    }
    await this.toFallback(batch);
  }

  private async enqueue(batch: ClickCapturedJob[], timeoutMs: number = CAPTURE_LIMITS.enqueueTimeoutMs): Promise<void> {
    await this.jobs.add(Queues.clicks, 'click.batch', packClickBatch(batch), { jobId: clickBatchJobId(batch), timeoutMs });
    this.metrics.clicksCaptured.inc(batch.length);
  }

  /** Throws when the disk failed too: the batcher keeps the clicks in memory and retries shortly. */
  private async toFallback(batch: ClickCapturedJob[]): Promise<void> {
    try {
      await this.fallback.append(batch);
      this.metrics.clicksFallback.inc(batch.length);
    } catch (err) {
      this.logger.error({ err, clicks: batch.length }, 'click fallback write failed; keeping clicks in memory');
      throw err;
    }
  }
}
