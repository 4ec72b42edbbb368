import { Processor } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import { QueueHandlers, Queues } from '@dl/platform/queue';
import { DeferDeliveryError, WebhookDeliveryService } from '@dl/webhooks';
import { QueueProcessor } from '../dispatch/queue-processor';

/**
 * Consumer of the `webhook-drains` queue: one job per webhook with pending deliveries, sending them
 * in batches as its rate and in-flight caps allow. A slot is mostly waiting on a receiver or on the
 * next rate window; a drain that must wait longer (a retry's backoff) or has run for a while is
 * re-delayed in Redis and takes its turn again behind the other webhooks, so a slow or dead
 * endpoint never blocks other tenants. Its own queue: a backlog of events never delays sending.
 */
@Processor(Queues.webhookDrains, { concurrency: 512, lockDuration: 90_000, maxStalledCount: 2 })
export class WebhookDrainsProcessor extends QueueProcessor<typeof Queues.webhookDrains> implements OnApplicationBootstrap {
  constructor(
    private readonly delivery: WebhookDeliveryService,
    metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(Queues.webhookDrains, metrics);
  }

  protected handlers(): QueueHandlers<typeof Queues.webhookDrains> {
    return { 'webhook.drain': (payload) => this.delivery.drain(payload) };
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }

  /** A drain that must wait (a retry's backoff, its time slice used) goes back to the delayed set. */
  protected override async run(job: Job, token: string | undefined, handle: () => Promise<unknown>): Promise<unknown> {
    try {
      return await handle();
    } catch (err) {
      if (err instanceof DeferDeliveryError) return this.defer(job, token, err.delayMs);
      throw err;
    }
  }
}
