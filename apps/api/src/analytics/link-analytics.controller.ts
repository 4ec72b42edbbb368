import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  AnalyticsDaysQueryDto,
  ClickEventResponse,
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
  LinkAnalyticsResponseDoc,
  OverviewResponseDoc,
  ProjectAnalyticsResponseDoc,
} from './analytics.response-doc';
import { UuidParamPipe } from './uuid-param.pipe';

@ApiTags('analytics')
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
