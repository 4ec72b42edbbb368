import { Module } from '@nestjs/common';
import { EventAnalyticsRepository } from './event-analytics.repository';
import { EventAnalyticsService } from './event-analytics.service';

@Module({
  providers: [EventAnalyticsRepository, EventAnalyticsService],
  exports: [EventAnalyticsService],
})
export class EventAnalyticsModule {}
