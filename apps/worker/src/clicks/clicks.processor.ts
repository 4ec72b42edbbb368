import { Processor } from '@nestjs/bullmq';
import { UnrecoverableError } from 'bullmq';
import { CLICK_CONCURRENCY, ClickJobName, ClickPipeline, ClickPipelineClosedError, MalformedClickError } from '@dl/clicks';
import { MetricsService } from '@dl/platform/observability';
import { QueueHandlers, Queues } from '@dl/platform/queue';
import { QueueProcessor } from '../dispatch/queue-processor';
import { HandBackError } from '../resilience/job-guard';
import { STALLED_JOB_OPTIONS } from '../resilience/stalled-jobs';

/**
 * Consumer of the `clicks` queue: feeds each job to the click pipeline (`@dl/clicks`
 * ClickPipeline), which completes the job once all its clicks are committed. The pipeline's
 * outcomes become BullMQ's: a malformed payload fails its job alone without retries, a job
 * that met the shutdown is handed back without spending an attempt.
 */
@Processor(Queues.clicks, { concurrency: CLICK_CONCURRENCY, ...STALLED_JOB_OPTIONS })
export class ClicksProcessor extends QueueProcessor<typeof Queues.clicks> {
  constructor(
    private readonly pipeline: ClickPipeline,
    metrics: MetricsService,
  ) {
    super(Queues.clicks, metrics);
  }

  protected handlers(): QueueHandlers<typeof Queues.clicks> {
    return {
      'click.captured': (payload, meta) => this.feed('click.captured', payload, meta.jobId),
      'click.batch': (payload, meta) => this.feed('click.batch', payload, meta.jobId),
    };
  }

  private async feed(job: ClickJobName, payload: unknown, jobId: string): Promise<void> {
    const stored = this.pipeline.ingest(job, payload, jobId);
    // Raw clicks held are bounded by clicks, not jobs: fewer jobs fetched when each carries many
    // (sized as soon as this job is counted, before it waits for room).
    const jobs = this.pipeline.jobsToHold();
    if (this.worker && this.worker.concurrency !== jobs) this.worker.concurrency = jobs;
    try {
      await stored;
    } catch (err) {
      if (err instanceof MalformedClickError) throw new UnrecoverableError(err.message);
      if (err instanceof ClickPipelineClosedError) throw new HandBackError(err.message);
      throw err;
    }
  }
}
