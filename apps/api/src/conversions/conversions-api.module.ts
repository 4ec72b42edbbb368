import { Module } from '@nestjs/common';
import { ConversionsModule } from '@dl/conversions';
import { ConversionsAnalyticsController, CustomersController } from './conversions-analytics.controller';
import { IntegrationEndpointsController, IntegrationsController } from './integrations.controller';
import { RawBodyHook } from './raw-body.hook';
import { TrackController } from './track.controller';

@Module({
  imports: [ConversionsModule],
  controllers: [TrackController, IntegrationsController, IntegrationEndpointsController, ConversionsAnalyticsController, CustomersController],
  providers: [RawBodyHook],
})
export class ConversionsApiModule {}
