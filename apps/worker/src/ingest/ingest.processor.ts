import { Processor, WorkerHost } from '@nestjs/bullmq';
import { DelayedError, Job } from 'bullmq';
import { MetricsService } from '@dl/platform/observability';
import { assertHandlers, JobName, Queues, QueueHandlers } from '@dl/platform/queue';
import { IngestWorkerService } from '@dl/sdk';
import { guardJob } from '../resilience/job-guard';
import { STALLED_JOB_OPTIONS } from '../resilience/stalled-jobs';

/** Jobs in flight: installs, opens and pixel events are single rows; `sdk.event` jobs carry micro-batches. */
export const INGEST_CONCURRENCY = 32;

/** Consumer of the `ingest` queue (installs, sessions, in-app events, pixel events). */
@Processor(Queues.ingest, { concurrency: INGEST_CONCURRENCY, ...STALLED_JOB_OPTIONS })
export class IngestProcessor extends WorkerHost {
  private readonly handlers: QueueHandlers<typeof Queues.ingest>;

  constructor(
    private readonly service: IngestWorkerService,
    private readonly metrics: MetricsService,
  ) {
    super();
    this.handlers = {
      'sdk.install': (payload) => this.service.install(payload),
      'sdk.open': (payload) => this.service.open(payload),
      'sdk.event': (payload) => this.service.events(payload),
      'pixel.event': (payload) => this.service.pixel(payload),
    };
    assertHandlers(Queues.ingest, this.handlers);
  }

  async process(job: Job, token?: string): Promise<void> {
    const name = job.name as JobName<typeof Queues.ingest>;
    const handler = this.handlers[name] as (payload: unknown, meta: { jobId: string; attemptsMade: number }) => Promise<unknown>;
    const labels = { queue: Queues.ingest, job: job.name };
    try {
      if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${Queues.ingest}"`);
      await guardJob(job, token, () => handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade }));
      this.metrics.jobOutcomes.inc({ ...labels, outcome: 'completed' });
    } catch (err) {
      this.metrics.jobOutcomes.inc({ ...labels, outcome: err instanceof DelayedError ? 'handed_back' : 'failed' });
      throw err;
    }
  }
}
