import { Processor } from '@nestjs/bullmq';
import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import { QueueHandlers, Queues } from '@dl/platform/queue';
import { WebhookDeliveryService } from '@dl/webhooks';
import { QueueProcessor } from '../dispatch/queue-processor';

/**
 * Consumer of the `webhooks` queue: fan-out of events into per-webhook lanes (and `webhook.deliver`
 * of the test endpoint into its lane). Sending is done by the drains (webhook-drains.processor.ts).
 */
@Processor(Queues.webhooks, { concurrency: 512, lockDuration: 90_000, maxStalledCount: 2 })
export class WebhooksProcessor extends QueueProcessor<typeof Queues.webhooks> implements OnApplicationBootstrap {
  constructor(
    private readonly delivery: WebhookDeliveryService,
    metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(Queues.webhooks, metrics);
  }

  protected handlers(): QueueHandlers<typeof Queues.webhooks> {
    return {
      'webhook.event': (payload) => this.delivery.fanOut(payload),
      'webhook.deliver': (payload, meta) => this.delivery.deliver(payload, meta),
    };
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.WEBHOOK_CONCURRENCY;
  }
}
