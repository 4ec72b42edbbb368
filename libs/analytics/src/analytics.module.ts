import { Module } from '@nestjs/common';
import { AnalyticsRepository } from './analytics.repository';
import { CubeRepository } from './cube.repository';
import { LinkAnalyticsService } from './link-analytics.service';
import { OrgAnalyticsService } from './org-analytics.service';

/** Link, project and overview click analytics (the query side of the click pipeline). */
@Module({
  providers: [AnalyticsRepository, CubeRepository, LinkAnalyticsService, OrgAnalyticsService],
  exports: [LinkAnalyticsService, OrgAnalyticsService],
})
export class LinkAnalyticsModule {}
