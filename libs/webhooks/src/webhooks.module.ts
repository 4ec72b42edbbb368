import { Module } from '@nestjs/common';
import { AttemptRecorder } from './attempt-recorder';
import { WebhookRateGate } from './rate-gate';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/** Management of webhooks (used by the api). Needs the platform and queue modules (global). */
@Module({
  providers: [WebhooksRepository, WebhooksService],
  exports: [WebhooksService],
})
export class WebhooksModule {}

/** The delivery engine (used by the worker's processor). */
@Module({
  providers: [WebhookDeliveriesRepository, WebhookRateGate, AttemptRecorder, WebhookDeliveryService],
  exports: [WebhookDeliveryService],
})
export class WebhookDeliveryModule {}
