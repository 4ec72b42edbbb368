import { Module } from '@nestjs/common';
import { WebhookDeliveryModule } from '@dl/webhooks';
import { WebhooksProcessor } from './webhooks.processor';

@Module({
  imports: [WebhookDeliveryModule],
  providers: [WebhooksProcessor],
})
export class WebhooksWorkerModule {}
