import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import {
  EventAnalyticsService,
  EventDaysQueryDto,
  EventExportQueryDto,
  EventListQueryDto,
  EventListResponse,
  EventNamesResponse,
  EventOverviewResponse,
  EventTimelineQueryDto,
  EventTimelineResponse,
} from '@dl/event-analytics';

@ApiTags('event analytics')
@Controller('api/analytics/events')
@Auth(Permissions.analyticsEvents)
export class EventAnalyticsController {
  constructor(private readonly analytics: EventAnalyticsService) {}

  @Get('overview')
  @ApiOperation({ summary: 'Totals, revenue and top events over the last `days` days (attributed events only)' })
  overview(@CurrentPrincipal() principal: Principal, @Query() query: EventDaysQueryDto): Promise<EventOverviewResponse> {
    return this.analytics.overview(principal.organizationId, query);
  }

  @Get('timeline')
  @ApiOperation({ summary: 'Events per UTC day, zero-count days included' })
  timeline(@CurrentPrincipal() principal: Principal, @Query() query: EventTimelineQueryDto): Promise<EventTimelineResponse> {
    return this.analytics.timeline(principal.organizationId, query);
  }

  @Get('list')
  @ApiOperation({ summary: 'Events, newest first, paginated; `search` matches event names case-insensitively' })
  list(@CurrentPrincipal() principal: Principal, @Query() query: EventListQueryDto): Promise<EventListResponse> {
    return this.analytics.list(principal.organizationId, query);
  }

  @Get('names')
  @ApiOperation({ summary: 'Every event name with its all-time count' })
  names(@CurrentPrincipal() principal: Principal): Promise<EventNamesResponse> {
    return this.analytics.names(principal.organizationId);
  }

  @Get('export')
  @Auth(Permissions.analyticsExport)
  @ApiOperation({ summary: 'Streamed export (JSON or CSV); needs `analytics:export`' })
  async export(@CurrentPrincipal() principal: Principal, @Query() query: EventExportQueryDto): Promise<StreamableFile> {
    const out = await this.analytics.export(principal.organizationId, query);
    return new StreamableFile(out.stream, { type: out.contentType, disposition: `attachment; filename="${out.filename}"` });
  }
}
