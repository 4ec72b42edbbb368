import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService, reportOutage } from '@dl/platform/observability';
import { ClickCapturedJob, JobQueue, Queues } from '@dl/platform/queue';
import { clickBatchJobId } from './click-batch';
import { ClickFallbackStore } from './click-fallback.store';

export const CAPTURE_LIMITS = {
  /** A batch leaves at most this long after its first click... */
  flushDelayMs: 5,
  /** ...or as soon as it holds this many. */
  batchSize: 500,
  /** An enqueue slower than this is treated as Redis being down (the batch goes to the fallback). */
  enqueueTimeoutMs: 1000,
  /** A replayed chunk may take longer (Redis busy right after a restart); a timeout retries the file. */
  replayTimeoutMs: 5000,
  /** How often the fallback folder is replayed while Redis is up. */
  replayIntervalMs: 1000,
} as const;

/**
 * Click capture at the edge: the redirect hands over the raw facts and moves on. Clicks are
 * batched (5 ms or 500 clicks) into ONE `click.batch` job on the `clicks` queue (job id
 * derived from its click ids, so a re-add of the same batch is a no-op; the consumer stores
 * each click id once whatever the grouping); when Redis is unreachable the clicks are
 * fsync'd to the local fallback and replayed later, again as batch jobs.
 */
@Injectable()
export class ClickCaptureService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ClickCapture');
  private readonly fallback: ClickFallbackStore;
  private buffer: ClickCapturedJob[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
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
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
    await this.replaying;
    await this.fallback.close();
  }

  /** Hands a click over; never waits and never throws. */
  capture(click: ClickCapturedJob): void {
    this.buffer.push(click);
    if (this.buffer.length >= CAPTURE_LIMITS.batchSize) {
      void this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), CAPTURE_LIMITS.flushDelayMs);
    }
  }

  /** Sends everything buffered (queue, else fallback). Batches leave one at a time. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.flushing = this.flushing.then(() => this.sendBuffered()).catch((err: unknown) => {
      this.logger.error({ err }, 'click flush failed');
    });
    return this.flushing;
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

  private async sendBuffered(): Promise<void> {
    while (this.buffer.length) {
      const batch = this.buffer.splice(0, CAPTURE_LIMITS.batchSize);
      if (this.queueReady) {
        try {
          await this.enqueue(batch);
          continue;
        } catch (err) {
          reportOutage('redis', err, 'click enqueue (clicks go to the local fallback)');
        }
      }
      if (!(await this.toFallback(batch))) return;
    }
  }

  private async enqueue(batch: ClickCapturedJob[], timeoutMs: number = CAPTURE_LIMITS.enqueueTimeoutMs): Promise<void> {
    await this.jobs.add(Queues.clicks, 'click.batch', { clicks: batch }, { jobId: clickBatchJobId(batch), timeoutMs });
    this.metrics.clicksCaptured.inc(batch.length);
  }

  /** False when the disk failed too: the clicks stay in memory and are retried shortly. */
  private async toFallback(batch: ClickCapturedJob[]): Promise<boolean> {
    try {
      await this.fallback.append(batch);
      this.metrics.clicksFallback.inc(batch.length);
      return true;
    } catch (err) {
      this.logger.error({ err, clicks: batch.length }, 'click fallback write failed; keeping clicks in memory');
      this.buffer.unshift(...batch);
      if (!this.timer) this.timer = setTimeout(() => void this.flush(), 250);
      return false;
    }
  }
}
