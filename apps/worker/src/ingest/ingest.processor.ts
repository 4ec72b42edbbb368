import { Processor } from '@nestjs/bullmq';
import { MetricsService } from '@dl/platform/observability';
import { QueueHandlers, Queues } from '@dl/platform/queue';
import { IngestWorkerService } from '@dl/sdk';
import { QueueProcessor } from '../dispatch/queue-processor';
import { STALLED_JOB_OPTIONS } from '../resilience/stalled-jobs';

/** Jobs in flight: installs, opens and pixel events are single rows; `sdk.event` jobs carry micro-batches. */
export const INGEST_CONCURRENCY = 32;

/** Consumer of the `ingest` queue (installs, sessions, in-app events, pixel events). */
@Processor(Queues.ingest, { concurrency: INGEST_CONCURRENCY, ...STALLED_JOB_OPTIONS })
export class IngestProcessor extends QueueProcessor<typeof Queues.ingest> {
  constructor(
    private readonly service: IngestWorkerService,
    metrics: MetricsService,
  ) {
    super(Queues.ingest, metrics);
  }

  protected handlers(): QueueHandlers<typeof Queues.ingest> {
    return {
      'sdk.install': (payload) => this.service.install(payload),
      'sdk.open': (payload) => this.service.open(payload),
      'sdk.event': (payload) => this.service.events(payload),
      'pixel.event': (payload) => this.service.pixel(payload),
    };
  }
}
