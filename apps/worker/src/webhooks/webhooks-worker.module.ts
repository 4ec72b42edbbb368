import { Module } from '@nestjs/common';
import { WebhookDeliveryModule } from '@dl/webhooks';
import { WebhookDrainsProcessor } from './webhook-drains.processor';
import { WebhookLaneSweeper } from './webhook-lane.sweeper';
import { WebhooksProcessor } from './webhooks.processor';

@Module({
  imports: [WebhookDeliveryModule],
  providers: [WebhooksProcessor, WebhookDrainsProcessor, WebhookLaneSweeper],
})
export class WebhooksWorkerModule {}
