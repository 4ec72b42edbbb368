import { Module } from '@nestjs/common';
import { AnalyticsRepository } from './analytics.repository';
import { CubeRepository } from './cube.repository';
import { LinkAnalyticsService } from './link-analytics.service';
import { LiveClicksService } from './live-clicks.service';
import { OrgAnalyticsService } from './org-analytics.service';

/** Link, project and overview click analytics (the query side of the click pipeline). */
@Module({
  providers: [AnalyticsRepository, CubeRepository, LinkAnalyticsService, OrgAnalyticsService, LiveClicksService],
  exports: [LinkAnalyticsService, OrgAnalyticsService, LiveClicksService],
})
export class LinkAnalyticsModule {}
