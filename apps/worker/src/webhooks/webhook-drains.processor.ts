import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { assertHandlers, Queues, QueueHandlers } from '@dl/platform/queue';
import { DeferDeliveryError, WebhookDeliveryService } from '@dl/webhooks';
import { guardJob } from '../resilience/job-guard';

/**
 * Consumer of the `webhook-drains` queue: one job per webhook with pending deliveries, sending them
 * in batches as its rate and in-flight caps allow. A slot is mostly waiting on a receiver or on the
 * next rate window; a drain that must wait longer (a retry's backoff) or has run for a while is
 * re-delayed in Redis and takes its turn again behind the other webhooks, so a slow or dead
 * endpoint never blocks other tenants. Its own queue: a backlog of events never delays sending.
 */
@Processor(Queues.webhookDrains, { concurrency: 512, lockDuration: 90_000, maxStalledCount: 2 })
export class WebhookDrainsProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly handlers: QueueHandlers<typeof Queues.webhookDrains>;

  constructor(
    delivery: WebhookDeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
    this.handlers = { 'webhook.drain': (payload) => delivery.drain(payload) };
    assertHandlers(Queues.webhookDrains, this.handlers);
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  async process(job: Job, token?: string): Promise<unknown> {
    return guardJob(job, token, async () => {
      try {
        return await this.handlers['webhook.drain'](job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade });
      } catch (err) {
        if (err instanceof DeferDeliveryError) {
          await job.moveToDelayed(Date.now() + err.delayMs, token);
          throw new DelayedError();
        }
        throw err;
      }
    });
  }
}
