import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { assertHandlers, JobName, Queues, QueueHandlers } from '@dl/platform/queue';
import { DeferDeliveryError, WebhookDeliveryService } from '@dl/webhooks';

/**
 * Consumer of the `webhooks` queue: fan-out of events and delivery attempts. Concurrency is high
 * (slots mostly wait on receivers); a delivery the rate gate defers is re-delayed in Redis at
 * once instead of holding a slot, so a slow or dead endpoint never blocks other tenants.
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
    try {
      return await handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade });
    } catch (err) {
      if (err instanceof DeferDeliveryError) {
        await job.moveToDelayed(Date.now() + err.delayMs, token);
        throw new DelayedError();
      }
      throw err;
    }
  }
}
