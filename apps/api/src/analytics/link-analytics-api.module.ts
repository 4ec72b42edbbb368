import { Module } from '@nestjs/common';
import { LinkAnalyticsModule } from '@dl/analytics';
import { ConversionsModule } from '@dl/conversions';
import { LinkAnalyticsController } from './link-analytics.controller';
import { LiveClicksController } from './live-clicks.controller';

/** GET /api/analytics, /api/analytics/{links,clicks,projects,overview,live}. */
@Module({
  imports: [LinkAnalyticsModule, ConversionsModule],
  controllers: [LinkAnalyticsController, LiveClicksController],
})
export class LinkAnalyticsApiModule {}
