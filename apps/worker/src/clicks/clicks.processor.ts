import { Processor } from '@nestjs/bullmq';
import { Logger, OnModuleDestroy } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { Counter } from 'prom-client';
import { admitClick, admitClickBatch, ClickIngestService, ClicksInFlight, EnrichedClick, enrichClick, MalformedClickError } from '@dl/clicks';
import { Batcher } from '@dl/platform/batch';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { infraDependency, MetricsService, reportOutage } from '@dl/platform/observability';
import { QueueHandlers, Queues } from '@dl/platform/queue';
import { QueueProcessor } from '../dispatch/queue-processor';
import { HandBackError } from '../resilience/job-guard';
import { STALLED_JOB_OPTIONS } from '../resilience/stalled-jobs';

/**
 * Clicks per transaction, and how long the first click of a batch may wait. Under live traffic
 * the wait decides the batch: a batch's rollup rows, link counters and statements are per link
 * and per batch, not per click, so 250 ms instead of 25 ms cut the worker's and Postgres's CPU per
 * click at half the two-core pipeline's rate by ~25% over 3,000 links and 3-5× over 100
 * (docs/performance.md, "The worker waits 250 ms"), for clicks stored at most 0.25 s later. The
 * size bounds a backlog's batches, and with them the clicks held in memory (CLICKS_IN_FLIGHT):
 * 10,000 held ~110-150 MB more at the peak of a 60,000-click backlog than 2,500 for the same CPU
 * per click.
 */
export const CLICK_BATCH_SIZE = 2500;
export const CLICK_BATCH_WAIT_MS = 250;
/**
 * Batches in the database at once: one in COPY and rollups while the next is written, so the
 * worker and Postgres both work. A third (3 until 2026-11-28) added no drain on the two-core
 * pipeline, whose batches of the same links wait on each other's rollup rows anyway; it only put
 * one more Postgres backend, each with a whole session's CPU weight on a host with autogroups,
 * against the redirect (full-load p99 11-13 ms against 12-16, redirects/s higher in 7 of 9
 * alternating runs; docs/performance.md, "The worker gives way"). More drain comes from more
 * worker processes (WEB_CONCURRENCY, decisions §18).
 */
export const CLICK_CONCURRENT_FLUSHES = 2;
/**
 * Most jobs in flight. The edge sends `click.batch` jobs of a few (light traffic, many edge
 * instances) to 500 clicks (one per 5 ms flush of each redirect instance); former
 * `click.captured` jobs carry one. Enough jobs to fill database batches from small jobs; with
 * large jobs the concurrency is lowered to what CLICKS_IN_FLIGHT needs (ClicksInFlight.jobsToHold),
 * so a queued backlog is not fetched (and held raw) many times over.
 */
export const CLICK_CONCURRENCY = 256;
/**
 * Clicks enriched and waiting for their commit: a job waits for room before enriching (a flush
 * in the database, the next filling, one more queued).
 */
export const CLICKS_IN_FLIGHT = CLICK_BATCH_SIZE * (CLICK_CONCURRENT_FLUSHES + 1);

/**
 * Consumer of the `clicks` queue. Each job's clicks (admission rules: `@dl/clicks`
 * click-admission.ts) go to the platform Batcher; the job waits for the commit of every database
 * batch holding them: one transaction stores many jobs' clicks, and a job completes only once
 * all its clicks are durable. A failed transaction fails all its jobs, which BullMQ retries;
 * replays insert nothing twice (ON CONFLICT (id, clicked_at) DO NOTHING, rollups and counters
 * from the inserted ids only).
 */
@Processor(Queues.clicks, { concurrency: CLICK_CONCURRENCY, ...STALLED_JOB_OPTIONS })
export class ClicksProcessor extends QueueProcessor<typeof Queues.clicks> implements OnModuleDestroy {
  private readonly logger = new Logger(ClicksProcessor.name);
  private readonly batcher: Batcher<EnrichedClick>;
  private readonly malformed: Counter<'job'>;
  private readonly inFlight = new ClicksInFlight(CLICKS_IN_FLIGHT, CLICK_CONCURRENCY);

  constructor(
    private readonly ingest: ClickIngestService,
    metrics: MetricsService,
  ) {
    super(Queues.clicks, metrics);
    this.malformed = new Counter({
      name: 'clicks_malformed_total',
      help: 'Clicks dropped by the consumer because their payload is malformed',
      labelNames: ['job'] as const,
      registers: [metrics.registry],
    });
    this.batcher = new Batcher({
      write: (items) => this.flush(items),
      maxSize: CLICK_BATCH_SIZE,
      maxWaitMs: CLICK_BATCH_WAIT_MS,
      maxConcurrent: CLICK_CONCURRENT_FLUSHES,
      // Only after the workers closed (shutdown): the job is handed back, its attempt not spent.
      closedError: () => new HandBackError('Batcher is closed'),
    });
  }

  protected handlers(): QueueHandlers<typeof Queues.clicks> {
    return {
      'click.captured': async (payload) => {
        const click = this.unrecoverable('click.captured', () => admitClick(payload));
        // Enriched now, while the previous batch is in the database.
        return this.store([click]);
      },
      'click.batch': async (payload, meta) => {
        const clicks = this.unrecoverable('click.batch', () =>
          admitClickBatch(payload, (index, reason) => {
            this.malformed.inc({ job: 'click.batch' });
            this.logger.warn({ jobId: meta.jobId, index, reason }, 'malformed click in a batch dropped');
          }),
        );
        if (clicks.length) await this.store(clicks);
      },
    };
  }

  /** A malformed payload fails its job alone, without retries; the batch never sees it. */
  private unrecoverable<T>(job: 'click.captured' | 'click.batch', admit: () => T): T {
    try {
      return admit();
    } catch (err) {
      if (!(err instanceof MalformedClickError)) throw err;
      this.malformed.inc({ job });
      throw new UnrecoverableError(err.message);
    }
  }

  /**
   * Enriches the clicks once they fit in flight and waits for the commit of all of them. Takes
   * the array: it is emptied once enriched, so the raw clicks are garbage while their enriched
   * forms wait the batch's 250 ms, not promoted to the old generation with them (a fifth of
   * what a click in flight held; docs/performance.md, "The worker on a CPU").
   */
  private async store(clicks: ClickCapturedJob[]): Promise<void> {
    const admitted = this.inFlight.admitted(clicks.length, async () => {
      const geo = this.ingest.geoLookup();
      const now = new Date();
      const enriched = clicks.map((click) => enrichClick(click, geo, now));
      clicks.length = 0;
      // Settles once every click's batch settled; the first failure fails the job (retried).
      await this.batcher.addAll(enriched);
    });
    // Held raw clicks bounded by clicks, not jobs: fewer jobs fetched when each carries many
    // (sized as soon as this job is counted, before it waits for room).
    const jobs = this.inFlight.jobsToHold();
    if (this.worker && this.worker.concurrency !== jobs) this.worker.concurrency = jobs;
    await admitted;
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
