import { Module } from '@nestjs/common';
import { LinkAnalyticsModule } from '@dl/analytics';
import { LinkAnalyticsController } from './link-analytics.controller';

/** GET /api/analytics/{links,clicks,projects,overview}. */
@Module({
  imports: [LinkAnalyticsModule],
  controllers: [LinkAnalyticsController],
})
export class LinkAnalyticsApiModule {}
