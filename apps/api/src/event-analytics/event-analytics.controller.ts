import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
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
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import {
  EventExportJsonDoc,
  EventListResponseDoc,
  EventNamesResponseDoc,
  EventOverviewResponseDoc,
  EventTimelineResponseDoc,
} from './event-analytics.response-doc';

@ApiTags('event analytics')
@Controller('api/analytics/events')
@Auth(Permissions.analyticsEvents)
@ApiExtraModels(EventExportJsonDoc)
@ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error (bad query)' })
@ApiUnauthorizedResponse({ type: ErrorBodyDoc })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Missing permission or plan feature' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc })
export class EventAnalyticsController {
  constructor(private readonly analytics: EventAnalyticsService) {}

  @Get('overview')
  @ApiOperation({ summary: 'Totals, revenue and top events over the last `days` days (attributed events only)' })
  @ApiOkResponse({ type: EventOverviewResponseDoc })
  overview(@CurrentPrincipal() principal: Principal, @Query() query: EventDaysQueryDto): Promise<EventOverviewResponse> {
    return this.analytics.overview(principal.organizationId, query);
  }

  @Get('timeline')
  @ApiOperation({ summary: 'Events per UTC day, zero-count days included' })
  @ApiOkResponse({ type: EventTimelineResponseDoc })
  timeline(@CurrentPrincipal() principal: Principal, @Query() query: EventTimelineQueryDto): Promise<EventTimelineResponse> {
    return this.analytics.timeline(principal.organizationId, query);
  }

  @Get('list')
  @ApiOperation({ summary: 'Events, newest first, paginated; `search` matches event names case-insensitively' })
  @ApiOkResponse({ type: EventListResponseDoc })
  list(@CurrentPrincipal() principal: Principal, @Query() query: EventListQueryDto): Promise<EventListResponse> {
    return this.analytics.list(principal.organizationId, query);
  }

  @Get('names')
  @ApiOperation({ summary: 'Every event name with its all-time count' })
  @ApiOkResponse({ type: EventNamesResponseDoc })
  names(@CurrentPrincipal() principal: Principal): Promise<EventNamesResponse> {
    return this.analytics.names(principal.organizationId);
  }

  @Get('export')
  @Auth(Permissions.analyticsExport)
  @ApiOperation({ summary: 'Streamed export (JSON or CSV); needs `analytics:export`' })
  @ApiOkResponse({
    description: 'Attachment `events.json` (format=json, default) or `events.csv` (format=csv; `eventData` as a quoted JSON string)',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(EventExportJsonDoc) } },
      'text/csv': {
        schema: {
          type: 'string',
          example: 'id,eventName,eventData,eventTimestamp,installId,linkId,linkShortCode,linkTitle\n',
        },
      },
    },
  })
  async export(@CurrentPrincipal() principal: Principal, @Query() query: EventExportQueryDto): Promise<StreamableFile> {
    const out = await this.analytics.export(principal.organizationId, query);
    return new StreamableFile(out.stream, { type: out.contentType, disposition: `attachment; filename="${out.filename}"` });
  }
}
