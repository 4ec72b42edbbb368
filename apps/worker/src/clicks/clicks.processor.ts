import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleDestroy } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { Counter } from 'prom-client';
import { ClickIngestService, EnrichedClick, enrichClick, invalidClickReason } from '@dl/clicks';
import { infraDependency, MetricsService, reportOutage } from '@dl/platform/observability';
import { assertHandlers, ClickBatchJob, ClickCapturedJob, JobName, Queues, QueueHandlers } from '@dl/platform/queue';
import { guardJob } from '../resilience/job-guard';
import { STALLED_JOB_OPTIONS } from '../resilience/stalled-jobs';
import { MicroBatcher } from './micro-batcher';

/** Clicks per transaction, and how long the first click of a batch may wait. */
export const CLICK_BATCH_SIZE = 10000;
export const CLICK_BATCH_WAIT_MS = 25;
/** Batches in the database at once (Postgres runs each on its own core). */
export const CLICK_CONCURRENT_FLUSHES = 3;
/**
 * Jobs in flight. The edge sends `click.batch` jobs of a few (light traffic, many edge
 * instances) to 500 clicks (one per 5 ms flush of each redirect instance); former
 * `click.captured` jobs carry one. Enough jobs to fill database batches from small jobs...
 */
export const CLICK_CONCURRENCY = 256;
/**
 * ...while the clicks enriched and waiting for their commit stay bounded: a job waits for room
 * before enriching (a flush in the database, the next filling, one more queued).
 */
export const CLICKS_IN_FLIGHT = CLICK_BATCH_SIZE * (CLICK_CONCURRENT_FLUSHES + 1);

/**
 * Consumer of the `clicks` queue. Each job hands its clicks (`click.batch`: many;
 * `click.captured`: one, the former transport) to a micro-batcher and waits for the
 * commit of every database batch holding them: one transaction stores many jobs'
 * clicks, and a job completes only once all its clicks are durable. A failed
 * transaction fails all its jobs, which BullMQ retries; replays insert nothing twice
 * (ON CONFLICT (id, clicked_at) DO NOTHING, rollups and counters from the inserted ids only).
 */
@Processor(Queues.clicks, { concurrency: CLICK_CONCURRENCY, ...STALLED_JOB_OPTIONS })
export class ClicksProcessor extends WorkerHost implements OnModuleDestroy {
  private readonly logger = new Logger(ClicksProcessor.name);
  private readonly handlers: QueueHandlers<typeof Queues.clicks>;
  private readonly batcher: MicroBatcher<EnrichedClick>;
  private readonly malformed: Counter<'job'>;
  private inFlight = 0;
  private waiting: Array<() => void> = [];

  constructor(
    private readonly ingest: ClickIngestService,
    private readonly metrics: MetricsService,
  ) {
    super();
    this.malformed = new Counter({
      name: 'clicks_malformed_total',
      help: 'Clicks dropped by the consumer because their payload is malformed',
      labelNames: ['job'] as const,
      registers: [metrics.registry],
    });
    this.handlers = {
      'click.captured': (payload) => {
        const invalid = invalidClickReason(payload);
        if (invalid) {
          this.malformed.inc({ job: 'click.captured' });
          // Fails this job alone, without retries; the batch never sees it.
          throw new UnrecoverableError(`Malformed click: ${invalid}`);
        }
        // Enriched now, while the previous batch is in the database.
        return this.admitted(1, () => this.batcher.add(enrichClick(payload, this.ingest.geoLookup())));
      },
      'click.batch': (payload, meta) => this.batch(payload, meta.jobId),
    };
    assertHandlers(Queues.clicks, this.handlers);
    this.batcher = new MicroBatcher((items) => this.flush(items), {
      maxSize: CLICK_BATCH_SIZE,
      maxWaitMs: CLICK_BATCH_WAIT_MS,
      maxConcurrentFlushes: CLICK_CONCURRENT_FLUSHES,
    });
  }

  async process(job: Job, token?: string): Promise<void> {
    const name = job.name as JobName<typeof Queues.clicks>;
    const handler = this.handlers[name];
    const labels = { queue: Queues.clicks, job: job.name };
    try {
      if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${Queues.clicks}"`);
      await guardJob(job, token, () => handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade }));
      this.metrics.jobOutcomes.inc({ ...labels, outcome: 'completed' });
    } catch (err) {
      this.metrics.jobOutcomes.inc({ ...labels, outcome: err instanceof DelayedError ? 'handed_back' : 'failed' });
      throw err;
    }
  }

  /**
   * A malformed click is dropped (logged, counted) and its neighbours stored: retrying the
   * job would never make it valid. A payload without a `clicks` array fails the job alone.
   */
  private async batch(payload: ClickBatchJob, jobId: string): Promise<void> {
    const clicks: unknown = (payload as unknown as Record<string, unknown> | null)?.clicks;
    if (!Array.isArray(clicks)) throw new UnrecoverableError('Malformed click batch: clicks is not an array');
    const valid: ClickCapturedJob[] = [];
    for (const [index, click] of (clicks as unknown[]).entries()) {
      const invalid = invalidClickReason(click);
      if (!invalid) {
        valid.push(click as ClickCapturedJob);
        continue;
      }
      this.malformed.inc({ job: 'click.batch' });
      this.logger.warn({ jobId, index, reason: invalid }, 'malformed click in a batch dropped');
    }
    if (!valid.length) return;
    await this.admitted(valid.length, async () => {
      const geo = this.ingest.geoLookup();
      const now = new Date();
      const pending = valid.map((click) => this.batcher.add(enrichClick(click, geo, now)));
      // Every add settles (no unhandled rejection); the first failure fails the job (retried).
      const results = await Promise.allSettled(pending);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    });
  }

  /** Runs `fn` once `clicks` fit under CLICKS_IN_FLIGHT (always when nothing else is in flight). */
  private async admitted<T>(clicks: number, fn: () => Promise<T>): Promise<T> {
    while (this.inFlight > 0 && this.inFlight + clicks > CLICKS_IN_FLIGHT) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight += clicks;
    try {
      return await fn();
    } finally {
      this.inFlight -= clicks;
      // Each waiter re-checks the room it needs.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  private async flush(items: EnrichedClick[]): Promise<void> {
    try {
      const result = await this.ingest.ingestEnriched(items);
      if (result.dropped) this.logger.warn({ dropped: result.dropped }, 'clicks of unknown links dropped');
    } catch (err) {
      // Postgres down: one warning per 30 s, the jobs are handed back (no attempt spent, see guardJob).
      const dependency = infraDependency(err, 'postgres');
      if (dependency) reportOutage(dependency, err, 'click batch');
      else this.logger.error({ err, clicks: items.length }, 'click batch failed; its jobs fail this attempt (a job that fails for good is logged)');
      throw err;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.batcher.close();
  }
}
