import { Module } from '@nestjs/common';
import { EventAnalyticsModule } from '@dl/event-analytics';
import { EventAnalyticsController } from './event-analytics.controller';

@Module({ imports: [EventAnalyticsModule], controllers: [EventAnalyticsController] })
export class EventAnalyticsApiModule {}
