import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnModuleDestroy } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { ClickIngestService, EnrichedClick, enrichClick, invalidClickReason } from '@dl/clicks';
import { MetricsService } from '@dl/platform/observability';
import { assertHandlers, JobName, Queues, QueueHandlers } from '@dl/platform/queue';
import { MicroBatcher } from './micro-batcher';

/** Clicks per transaction, and how long the first click of a batch may wait. */
export const CLICK_BATCH_SIZE = 2000;
export const CLICK_BATCH_WAIT_MS = 25;
/** Jobs in flight: room for one batch flushing while the next fills. */
export const CLICK_CONCURRENCY = CLICK_BATCH_SIZE * 2;

/**
 * Consumer of the `clicks` queue. BullMQ has no batch API, so each job's `process`
 * hands its click to a micro-batcher and waits for that batch's commit: one
 * transaction stores many jobs' clicks, and a job completes only once its click is
 * durable. A failed batch fails all its jobs, which BullMQ retries; replays insert
 * nothing twice (ON CONFLICT (id) DO NOTHING).
 */
@Processor(Queues.clicks, { concurrency: CLICK_CONCURRENCY })
export class ClicksProcessor extends WorkerHost implements OnModuleDestroy {
  private readonly logger = new Logger(ClicksProcessor.name);
  private readonly handlers: QueueHandlers<typeof Queues.clicks>;
  private readonly batcher: MicroBatcher<EnrichedClick>;

  constructor(
    private readonly ingest: ClickIngestService,
    private readonly metrics: MetricsService,
  ) {
    super();
    this.handlers = {
      'click.captured': (payload) => {
        const invalid = invalidClickReason(payload);
        // Fails this job alone, without retries; the batch never sees it.
        if (invalid) throw new UnrecoverableError(`Malformed click: ${invalid}`);
        // Enriched now, while the previous batch is in the database.
        return this.batcher.add(enrichClick(payload, this.ingest.geoLookup()));
      },
    };
    assertHandlers(Queues.clicks, this.handlers);
    this.batcher = new MicroBatcher((items) => this.flush(items), {
      maxSize: CLICK_BATCH_SIZE,
      maxWaitMs: CLICK_BATCH_WAIT_MS,
      maxConcurrentFlushes: 1,
    });
  }

  async process(job: Job): Promise<void> {
    const name = job.name as JobName<typeof Queues.clicks>;
    const handler = this.handlers[name];
    const labels = { queue: Queues.clicks, job: job.name };
    try {
      if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${Queues.clicks}"`);
      await handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade });
      this.metrics.jobOutcomes.inc({ ...labels, outcome: 'completed' });
    } catch (err) {
      this.metrics.jobOutcomes.inc({ ...labels, outcome: 'failed' });
      throw err;
    }
  }

  private async flush(items: EnrichedClick[]): Promise<void> {
    try {
      const result = await this.ingest.ingestEnriched(items);
      if (result.dropped) this.logger.warn({ dropped: result.dropped }, 'clicks of unknown links dropped');
    } catch (err) {
      this.logger.error({ err, clicks: items.length }, 'click batch failed; its jobs will be retried');
      throw err;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.batcher.close();
  }
}
