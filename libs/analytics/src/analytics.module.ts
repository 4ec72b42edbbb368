import { Module } from '@nestjs/common';
import { AnalyticsRepository } from './analytics.repository';
import { LinkAnalyticsService } from './link-analytics.service';

/** Link, project and overview click analytics (the query side of the click pipeline). */
@Module({
  providers: [AnalyticsRepository, LinkAnalyticsService],
  exports: [LinkAnalyticsService],
})
export class LinkAnalyticsModule {}
