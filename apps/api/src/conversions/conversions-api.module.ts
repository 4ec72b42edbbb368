import { Module, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ConversionsModule } from '@dl/conversions';
import { captureRawBody } from '../raw-body';
import { ConversionsAnalyticsController, CustomersController } from './conversions-analytics.controller';
import { IntegrationEndpointsController, IntegrationsController } from './integrations.controller';
import { TrackController } from './track.controller';

/** The integration endpoints' paths: Stripe and Shopify sign their bodies as sent. */
const RAW_BODY_PREFIX = '/integrations/';

@Module({
  imports: [ConversionsModule],
  controllers: [TrackController, IntegrationsController, IntegrationEndpointsController, ConversionsAnalyticsController, CustomersController],
})
export class ConversionsApiModule implements OnModuleInit {
  constructor(@Optional() private readonly adapterHost?: HttpAdapterHost) {}

  onModuleInit(): void {
    captureRawBody(this.adapterHost, (path) => path.startsWith(RAW_BODY_PREFIX));
  }
}
