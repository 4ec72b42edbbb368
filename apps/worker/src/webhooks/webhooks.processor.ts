import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { assertHandlers, JobName, Queues, QueueHandlers } from '@dl/platform/queue';
import { WebhookDeliveryService } from '@dl/webhooks';
import { guardJob } from '../resilience/job-guard';

/**
 * Consumer of the `webhooks` queue: fan-out of events into per-webhook lanes (and `webhook.deliver`
 * of the test endpoint into its lane). Sending is done by the drains (webhook-drains.processor.ts).
 */
@Processor(Queues.webhooks, { concurrency: 512, lockDuration: 90_000, maxStalledCount: 2 })
export class WebhooksProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly handlers: QueueHandlers<typeof Queues.webhooks>;

  constructor(
    delivery: WebhookDeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
    this.handlers = {
      'webhook.event': (payload) => delivery.fanOut(payload),
      'webhook.deliver': (payload, meta) => delivery.deliver(payload, meta),
    };
    assertHandlers(Queues.webhooks, this.handlers);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async process(job: Job, token?: string): Promise<unknown> {
    const name = job.name as JobName<typeof Queues.webhooks>;
    const handler = this.handlers[name] as (p: unknown, m: { jobId: string; attemptsMade: number }) => Promise<unknown>;
    return guardJob(job, token, () => handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade }));
  }
}
