import { Module } from '@nestjs/common';
import { ConversionEventsService } from './conversion-events.service';
import { ConversionSalesService } from './conversion-sales.service';
import { ConversionsAnalyticsService } from './conversions-analytics.service';
import { ConversionsReadRepository } from './conversions-read.repository';
import { CustomersRepository } from './customers.repository';
import { CustomersService } from './customers.service';
import { IntegrationEndpointsService } from './integration-endpoints.service';
import { IntegrationsRepository } from './integrations.repository';
import { IntegrationsService } from './integrations.service';
import { LeadsRepository } from './leads.repository';
import { SalesRepository } from './sales.repository';
import { ShopifyEventsService } from './shopify-events.service';
import { StripeEventsService } from './stripe-events.service';
import { TrackService } from './track.service';

/** Customers, leads, sales, refunds and their integrations (decisions §23). Needs the platform and queue modules (global). */
@Module({
  providers: [
    LeadsRepository,
    SalesRepository,
    IntegrationsRepository,
    ConversionEventsService,
    TrackService,
    IntegrationsService,
    StripeEventsService,
    ShopifyEventsService,
    IntegrationEndpointsService,
    ConversionSalesService,
    ConversionsReadRepository,
    ConversionsAnalyticsService,
    CustomersRepository,
    CustomersService,
  ],
  exports: [ConversionsAnalyticsService, CustomersService, ConversionSalesService, TrackService, LeadsRepository, SalesRepository, IntegrationsService, IntegrationEndpointsService],
})
export class ConversionsModule {}
