import { Controller, Get, Param, Query, StreamableFile } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  AnalyticsDaysQueryDto,
  CLICK_EXPORT_CSV_HEADER,
  ClickEventResponse,
  ClickExportQueryDto,
  ClickListQueryDto,
  LinkAnalyticsResponse,
  LinkAnalyticsService,
  OverviewResponse,
  ProjectAnalyticsResponse,
} from '@dl/analytics';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import {
  ClickEventResponseDoc,
  ClickExportRowDoc,
  LinkAnalyticsResponseDoc,
  OverviewResponseDoc,
  ProjectAnalyticsResponseDoc,
} from './analytics.response-doc';
import { UuidParamPipe } from './uuid-param.pipe';

@ApiTags('analytics')
@ApiExtraModels(ClickExportRowDoc)
@Controller('api/analytics')
@Auth(Permissions.read)
@ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error (bad id or query)' })
@ApiUnauthorizedResponse({ type: ErrorBodyDoc })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc })
export class LinkAnalyticsController {
  constructor(private readonly analytics: LinkAnalyticsService) {}

  @Get('links/:linkId')
  @ApiOperation({ summary: 'Click analytics of a link over the last `days` days (bots excluded)' })
  @ApiOkResponse({ type: LinkAnalyticsResponseDoc })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link not found' })
  link(
    @CurrentPrincipal() principal: Principal,
    @Param('linkId', new UuidParamPipe('linkId')) linkId: string,
    @Query() query: AnalyticsDaysQueryDto,
  ): Promise<LinkAnalyticsResponse> {
    return this.analytics.linkSummary(principal.organizationId, linkId, query.days);
  }

  @Get('clicks/:linkId')
  @ApiOperation({ summary: 'The most recent clicks of a link (bots excluded)' })
  @ApiOkResponse({ type: [ClickEventResponseDoc] })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link not found' })
  clicks(
    @CurrentPrincipal() principal: Principal,
    @Param('linkId', new UuidParamPipe('linkId')) linkId: string,
    @Query() query: ClickListQueryDto,
  ): Promise<ClickEventResponse[]> {
    return this.analytics.recentClicks(principal.organizationId, linkId, query.limit);
  }

  @Get('clicks/:linkId/export')
  @Auth(Permissions.analyticsExport)
  @ApiOperation({ summary: 'Every click of a link in the last `days` days, oldest first, streamed (JSON or CSV); needs `analytics:export`' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      'Attachment `clicks-<linkId>-<days>d.json` (format=json, default: an array of click events with isBot, variantIndex, ruleIndex) ' +
      'or `.csv` (format=csv; a header line, cells quoted and formula-safe)',
    content: {
      'application/json': { schema: { type: 'array', items: { $ref: getSchemaPath(ClickExportRowDoc) } } },
      'text/csv': { schema: { type: 'string', example: `${CLICK_EXPORT_CSV_HEADER}\r\n` } },
    },
  })
  @ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Needs analytics:export (Admin or Owner)' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Link not found' })
  async exportClicks(
    @CurrentPrincipal() principal: Principal,
    @Param('linkId', new UuidParamPipe('linkId')) linkId: string,
    @Query() query: ClickExportQueryDto,
  ): Promise<StreamableFile> {
    const out = await this.analytics.exportClicks(principal.organizationId, linkId, query.format, query.days);
    return new StreamableFile(out.stream, { type: out.contentType, disposition: `attachment; filename="${out.filename}"` });
  }

  @Get('projects/:projectId')
  @ApiOperation({ summary: 'Click analytics of the links of a project' })
  @ApiOkResponse({ type: ProjectAnalyticsResponseDoc })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Project not found' })
  project(
    @CurrentPrincipal() principal: Principal,
    @Param('projectId', new UuidParamPipe('projectId')) projectId: string,
    @Query() query: AnalyticsDaysQueryDto,
  ): Promise<ProjectAnalyticsResponse> {
    return this.analytics.projectSummary(principal.organizationId, projectId, query.days);
  }

  @Get('overview')
  @ApiOperation({ summary: 'Links and clicks of the organization over the last `days` days' })
  @ApiOkResponse({ type: OverviewResponseDoc })
  overview(@CurrentPrincipal() principal: Principal, @Query() query: AnalyticsDaysQueryDto): Promise<OverviewResponse> {
    return this.analytics.overview(principal.organizationId, query.days);
  }
}
