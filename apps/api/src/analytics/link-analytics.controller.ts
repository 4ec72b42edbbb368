import { Query, StreamableFile } from '@nestjs/common';
import { ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import {
  AnalyticsDaysQueryDto,
  CLICK_EXPORT_CSV_HEADER,
  ClickEventResponseDto,
  ClickExportQueryDto,
  ClickExportRowDto,
  ClickListQueryDto,
  LinkAnalyticsQueryDto,
  LinkAnalyticsService,
  OrgAnalyticsQueryDto,
  OrgAnalyticsResponseDto,
  OrgAnalyticsService,
  OverviewResponseDto,
  ProjectAnalyticsResponseDto,
} from '@dl/analytics';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ConversionsAnalyticsService, LinkAnalyticsWithConversionsDto } from '@dl/conversions';
import { ApiController, Endpoint, UuidParam } from '@dl/platform/http';

const BAD_REQUEST = { 400: 'Validation error (bad id or query)' } as const;
const LINK_ERRORS = { ...BAD_REQUEST, 404: 'Link not found' } as const;

@ApiController('api/analytics', 'analytics', ApiExtraModels(ClickExportRowDto), Auth(Permissions.read, { scope: 'analytics:read' }))
export class LinkAnalyticsController {
  constructor(
    private readonly analytics: LinkAnalyticsService,
    private readonly org: OrgAnalyticsService,
    private readonly conversions: ConversionsAnalyticsService,
  ) {}

  @Endpoint.get({
    summary: 'The organization-wide view: combinable filters, the previous window, days in `tz` (decisions §24)',
    response: OrgAnalyticsResponseDto,
    errors: { 400: 'Validation error (a typed filter, the window or tz)' },
  })
  summary(@CurrentPrincipal() principal: Principal, @Query() query: OrgAnalyticsQueryDto): Promise<OrgAnalyticsResponseDto> {
    return this.org.summary(principal.organizationId, query);
  }

  @Endpoint.get('links/:linkId', {
    summary:
      'Click analytics of a link over the last `days` days (bots excluded), with the filters and `tz` of GET /api/analytics, ' +
      'and its leads, sales and net revenue in the same window (UTC days)',
    response: LinkAnalyticsWithConversionsDto,
    errors: LINK_ERRORS,
  })
  async link(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('linkId') linkId: string,
    @Query() query: LinkAnalyticsQueryDto,
  ): Promise<LinkAnalyticsWithConversionsDto> {
    const clicks = await this.analytics.linkSummary(principal.organizationId, linkId, query.days, undefined, query);
    return { ...clicks, ...(await this.conversions.forLink(principal.organizationId, linkId, query)) };
  }

  @Endpoint.get('clicks/:linkId', { summary: 'The most recent clicks of a link (bots excluded)', response: [ClickEventResponseDto], errors: LINK_ERRORS })
  clicks(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('linkId') linkId: string,
    @Query() query: ClickListQueryDto,
  ): Promise<ClickEventResponseDto[]> {
    return this.analytics.recentClicks(principal.organizationId, linkId, query.limit);
  }

  @Endpoint.get('clicks/:linkId/export', {
    access: Auth(Permissions.analyticsExport),
    summary: 'Every click of a link in the last `days` days, oldest first, streamed (JSON or CSV); needs `analytics:export`',
    produces: ['application/json', 'text/csv'],
    success: {
      description:
        'Attachment `clicks-<linkId>-<days>d.json` (format=json, default: an array of click events with isBot, variantIndex, ruleIndex) ' +
        'or `.csv` (format=csv; a header line, cells quoted and formula-safe)',
      content: {
        'application/json': { schema: { type: 'array', items: { $ref: getSchemaPath(ClickExportRowDto) } } },
        'text/csv': { schema: { type: 'string', example: `${CLICK_EXPORT_CSV_HEADER}\r\n` } },
      },
    },
    errors: { ...LINK_ERRORS, 403: 'Needs analytics:export (Admin or Owner)' },
  })
  async exportClicks(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('linkId') linkId: string,
    @Query() query: ClickExportQueryDto,
  ): Promise<StreamableFile> {
    const out = await this.analytics.exportClicks(principal.organizationId, linkId, query.format, query.days);
    return new StreamableFile(out.stream, { type: out.contentType, disposition: `attachment; filename="${out.filename}"` });
  }

  @Endpoint.get('projects/:projectId', {
    summary: 'Click analytics of the links of a project',
    response: ProjectAnalyticsResponseDto,
    errors: { ...BAD_REQUEST, 404: 'Project not found' },
  })
  project(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('projectId') projectId: string,
    @Query() query: AnalyticsDaysQueryDto,
  ): Promise<ProjectAnalyticsResponseDto> {
    return this.analytics.projectSummary(principal.organizationId, projectId, query.days);
  }

  @Endpoint.get('overview', { summary: 'Links and clicks of the organization over the last `days` days', response: OverviewResponseDto, errors: BAD_REQUEST })
  overview(@CurrentPrincipal() principal: Principal, @Query() query: AnalyticsDaysQueryDto): Promise<OverviewResponseDto> {
    return this.analytics.overview(principal.organizationId, query.days);
  }
}
