import { Query, StreamableFile } from '@nestjs/common';
import { ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import {
  CSV_HEADER,
  EventAnalyticsService,
  EventDaysQueryDto,
  EventExportJsonDto,
  EventExportQueryDto,
  EventListQueryDto,
  EventListResponseDto,
  EventNamesResponseDto,
  EventOverviewResponseDto,
  EventTimelineQueryDto,
  EventTimelineResponseDto,
} from '@dl/event-analytics';
import { ApiController, Endpoint } from '@dl/platform/http';

const BAD_QUERY = { 400: 'Validation error (bad query)' } as const;
/** The plan gate (FREE has no event analytics) answers 403 like a missing permission. */
const ERRORS = { ...BAD_QUERY, 403: 'Missing permission or plan feature' } as const;

@ApiController('api/analytics/events', 'event analytics', Auth(Permissions.analyticsEvents), ApiExtraModels(EventExportJsonDto))
export class EventAnalyticsController {
  constructor(private readonly analytics: EventAnalyticsService) {}

  @Endpoint.get('overview', {
    summary: 'Totals, revenue and top events over the last `days` days (attributed events only)',
    response: EventOverviewResponseDto,
    errors: ERRORS,
  })
  overview(@CurrentPrincipal() principal: Principal, @Query() query: EventDaysQueryDto): Promise<EventOverviewResponseDto> {
    return this.analytics.overview(principal.organizationId, query);
  }

  @Endpoint.get('timeline', { summary: 'Events per UTC day, zero-count days included', response: EventTimelineResponseDto, errors: ERRORS })
  timeline(@CurrentPrincipal() principal: Principal, @Query() query: EventTimelineQueryDto): Promise<EventTimelineResponseDto> {
    return this.analytics.timeline(principal.organizationId, query);
  }

  @Endpoint.get('list', {
    summary: 'Events, newest first, paginated; `search` matches event names case-insensitively',
    response: EventListResponseDto,
    errors: ERRORS,
  })
  list(@CurrentPrincipal() principal: Principal, @Query() query: EventListQueryDto): Promise<EventListResponseDto> {
    return this.analytics.list(principal.organizationId, query);
  }

  @Endpoint.get('names', { summary: 'Every event name with its all-time count', response: EventNamesResponseDto, errors: ERRORS })
  names(@CurrentPrincipal() principal: Principal): Promise<EventNamesResponseDto> {
    return this.analytics.names(principal.organizationId);
  }

  @Endpoint.get('export', {
    access: Auth(Permissions.analyticsExport),
    summary: 'Streamed export (JSON or CSV); needs `analytics:export`',
    success: {
      description: 'Attachment `events.json` (format=json, default) or `events.csv` (format=csv; `eventData` as a quoted JSON string)',
      content: {
        'application/json': { schema: { $ref: getSchemaPath(EventExportJsonDto) } },
        'text/csv': { schema: { type: 'string', example: `${CSV_HEADER}\n` } },
      },
    },
    errors: BAD_QUERY,
  })
  async export(@CurrentPrincipal() principal: Principal, @Query() query: EventExportQueryDto): Promise<StreamableFile> {
    const out = await this.analytics.export(principal.organizationId, query);
    return new StreamableFile(out.stream, { type: out.contentType, disposition: `attachment; filename="${out.filename}"` });
  }
}
