import { Module } from '@nestjs/common';
import { WebhooksModule } from '@dl/webhooks';
import { WebhooksController } from './webhooks.controller';

@Module({
  imports: [WebhooksModule],
  controllers: [WebhooksController],
})
export class WebhooksApiModule {}
