import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { Counter } from 'prom-client';
import { Batcher } from '@dl/platform/batch';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { GeoIp } from '@dl/platform/geo';
import { infraDependency, MetricsService, reportOutage } from '@dl/platform/observability';
import { JobName, Queues } from '@dl/platform/queue';
import { admitClick, admitClickBatch, ClicksInFlight, MalformedClickError } from './click-admission';
import { addClickWriteResult, BeforeCommit, ClickWriter, ClickWriteResult, noClicksWritten } from './click-writer';
import { EnrichedClick, enrichClick } from './enrich';

/**
 * Clicks per transaction, and how long the first click of a batch may wait. Under live traffic
 * the wait decides the batch: a batch's rollup rows, link counters and statements are per link
 * and per batch, not per click, so a longer wait costs the worker and Postgres less CPU per
 * click, for clicks stored at most that much later. The size bounds a backlog's batches, and
 * with them the clicks held in memory (CLICKS_IN_FLIGHT); larger batches held more memory at a
 * backlog's peak for the same CPU per click.
 */
export const CLICK_BATCH_SIZE = 2500;
export const CLICK_BATCH_WAIT_MS = 250;
/**
 * Batches in the database at once: one in COPY and rollups while the next is written, so the
 * worker and Postgres both work. A third adds no drain on two cores (batches of the same links
 * wait on each other's rollup rows anyway), only one more Postgres backend competing with the
 * redirect. More drain comes from more worker processes (WEB_CONCURRENCY, decisions §18).
 */
export const CLICK_CONCURRENT_FLUSHES = 2;
/**
 * Most `clicks` jobs a consumer holds. The edge sends `click.batch` jobs of one flush each (up
 * to `CAPTURE_LIMITS.batchSize` clicks of a redirect instance, a few under light traffic);
 * `click.captured` jobs carry one. Enough jobs to fill database batches from small jobs; with
 * large jobs the consumer holds fewer (`ClickPipeline.jobsToHold`), so a queued backlog is not
 * fetched, and held raw, many times over.
 */
export const CLICK_CONCURRENCY = 256;
/**
 * Clicks enriched and waiting for their commit: clicks wait for room before they are enriched
 * (a batch in the database, the next filling, one more queued).
 */
export const CLICKS_IN_FLIGHT = CLICK_BATCH_SIZE * (CLICK_CONCURRENT_FLUSHES + 1);

/** The pipeline was closed (shutdown): the clicks were not taken; their job should run again later. */
export class ClickPipelineClosedError extends Error {
  override readonly name = 'ClickPipelineClosedError';
}

/** A job of the `clicks` queue. */
export type ClickJobName = JobName<typeof Queues.clicks>;

/**
 * Extension points of the pipeline, in the order a click meets them (`ClickPipeline.use`).
 * Hooks run in the pipeline's process; keep them short.
 */
export interface ClickPipelineHooks {
  /** Each call's clicks once enriched, before they join a batch (a replay among them is stored nothing twice later). */
  enriched?: (clicks: readonly EnrichedClick[]) => void;
  /** Inside a batch's transaction, after its writes, before COMMIT: a throw rolls the batch back and fails its callers. */
  beforeCommit?: BeforeCommit;
  /**
   * After a batch committed, with the clicks it stored now (a replayed click is not among them).
   * A throw fails the batch's callers (jobs are retried; their replay stores nothing twice).
   */
  committed?: (stored: readonly EnrichedClick[], result: ClickWriteResult) => void | Promise<void>;
}

/**
 * The click pipeline: admission, a bound on the clicks in flight, enrichment (user agent,
 * GeoIP, visitor), batching and writing (`ClickWriter`: one transaction per batch). Every
 * producer of clicks goes through it: the worker feeds it `clicks` jobs (`ingest`), the demo
 * seed, benches and tests hand it raw clicks (`store`), so seeded and test traffic is enriched,
 * batched and rolled up exactly like live traffic.
 *
 * A call resolves once every one of its clicks is committed, so a job completes only once its
 * clicks are durable: one transaction holds many calls' clicks, and a failed transaction fails
 * all of them (BullMQ retries the jobs). A replay inserts nothing twice (ON CONFLICT
 * (id, clicked_at) DO NOTHING; rollups, counters and webhooks from the inserted clicks only).
 */
@Injectable()
export class ClickPipeline implements OnModuleDestroy {
  /** What the pipeline has written since it started. */
  readonly totals: ClickWriteResult = noClicksWritten();
  private readonly logger = new Logger(ClickPipeline.name);
  private readonly inFlight = new ClicksInFlight(CLICKS_IN_FLIGHT, CLICK_CONCURRENCY);
  private readonly batcher: Batcher<EnrichedClick>;
  private readonly hooks = new Set<ClickPipelineHooks>();
  private readonly malformed: Counter<'job'> | undefined;
  private geo: GeoIp | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writer: ClickWriter,
    @Optional() metrics?: MetricsService,
  ) {
    this.malformed = metrics
      ? new Counter({
          name: 'clicks_malformed_total',
          help: 'Clicks dropped by the consumer because their payload is malformed',
          labelNames: ['job'] as const,
          registers: [metrics.registry],
        })
      : undefined;
    this.batcher = new Batcher({
      write: (batch) => this.write(batch),
      maxSize: CLICK_BATCH_SIZE,
      maxWaitMs: CLICK_BATCH_WAIT_MS,
      maxConcurrent: CLICK_CONCURRENT_FLUSHES,
      closedError: () => new ClickPipelineClosedError('The click pipeline is closed'),
    });
  }

  /** Adds extension points; returns their removal. */
  use(hooks: ClickPipelineHooks): () => void {
    this.hooks.add(hooks);
    return () => this.hooks.delete(hooks);
  }

  /**
   * A `clicks` job: its valid clicks stored (`admit`, then `store`). Rejects with
   * MalformedClickError for a payload no retry can make valid, and ClickPipelineClosedError
   * after `close`.
   */
  async ingest(job: ClickJobName, payload: unknown, jobId = ''): Promise<void> {
    const clicks = this.admit(job, payload, jobId);
    // The admitted array is the pipeline's own: `take` may empty it.
    if (clicks.length) await this.take(clicks);
  }

  /**
   * The valid clicks of a job's payload. A malformed click in a `click.batch` is dropped (counted
   * and logged) and its neighbours kept; a payload that is malformed as a whole throws
   * MalformedClickError.
   */
  admit(job: ClickJobName, payload: unknown, jobId = ''): ClickCapturedJob[] {
    try {
      if (job === 'click.captured') return [admitClick(payload)];
      return admitClickBatch(payload, (index, reason) => {
        this.malformed?.inc({ job });
        this.logger.warn({ jobId, index, reason }, 'malformed click in a batch dropped');
      });
    } catch (err) {
      if (err instanceof MalformedClickError) this.malformed?.inc({ job });
      throw err;
    }
  }

  /** Stores raw clicks (already valid): resolves once every one of them is committed. */
  store(clicks: readonly ClickCapturedJob[]): Promise<void> {
    return clicks.length ? this.take([...clicks]) : Promise.resolve();
  }

  /** Sends the batch waiting for its time now, and resolves once nothing is being written. */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  /**
   * Jobs worth holding for the clicks per job seen so far: enough to fill the bound in flight,
   * at most CLICK_CONCURRENCY. A consumer sizes its job concurrency to it.
   */
  jobsToHold(): number {
    return this.inFlight.jobsToHold();
  }

  /** Refuses new clicks, then writes what waits (a shutdown). */
  close(): Promise<void> {
    return this.batcher.close();
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }

  /**
   * Enriches the clicks once they fit in flight and waits for the commit of all of them. Takes
   * the array and empties it once enriched, so the raw clicks are garbage while their enriched
   * forms wait for the batch, rather than promoted to the old generation with them.
   */
  private take(clicks: ClickCapturedJob[]): Promise<void> {
    // Called synchronously: the clicks per job are counted before the caller asks jobsToHold.
    return this.inFlight.admitted(clicks.length, async () => {
      const geo = this.geoLookup();
      const now = new Date();
      const enriched = clicks.map((click) => enrichClick(click, geo, now));
      clicks.length = 0;
      for (const hooks of this.hooks) hooks.enriched?.(enriched);
      // Settles once every click's batch settled; the first failure fails the call.
      await this.batcher.addAll(enriched);
    });
  }

  private async write(batch: EnrichedClick[]): Promise<void> {
    try {
      const { result, stored } = await this.writer.write(batch, (inserted) => this.beforeCommit(inserted));
      addClickWriteResult(this.totals, result);
      if (result.dropped) this.logger.warn({ dropped: result.dropped }, 'clicks of unknown links dropped');
      for (const hooks of this.hooks) await hooks.committed?.(stored, result);
    } catch (err) {
      // Postgres down: one warning per 30 s; the worker hands the jobs back without spending an attempt.
      const dependency = infraDependency(err, 'postgres');
      if (dependency) reportOutage(dependency, err, 'click batch');
      else this.logger.error({ err, clicks: batch.length }, 'click batch failed; its callers fail (a job is retried, one that fails for good is logged)');
      throw err;
    }
  }

  private async beforeCommit(inserted: readonly EnrichedClick[]): Promise<void> {
    for (const hooks of this.hooks) await hooks.beforeCommit?.(inserted);
  }

  /** The GeoIP database, opened on first use (about 60 MB in memory). */
  private geoLookup(): GeoIp {
    if (!this.geo) {
      this.geo = GeoIp.city(this.config.GEOIP_DATABASE_PATH);
      if (!this.geo.available) this.logger.warn('No GeoIP city database found: clicks are stored without geography');
    }
    return this.geo;
  }
}
