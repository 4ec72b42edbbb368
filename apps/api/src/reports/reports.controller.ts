import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { MonthlyReport, MonthlyReportListItem, ReportsService } from '@dl/reports';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { MonthlyReportQueryDto } from './reports.dto';
import { MonthlyReportDoc, MonthlyReportListDoc } from './reports.response-doc';

/** Monthly reports (Cloud): JWT or API key; regeneration is the owner's (checked by the service, in the §11 order). */
@ApiTags('reports')
@ApiBearerAuth()
@Auth(Permissions.read)
@Controller('api/reports/monthly')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc })
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  @ApiOperation({ summary: 'Every retained monthly report period, newest first' })
  @ApiOkResponse({ type: MonthlyReportListDoc })
  list(@CurrentPrincipal() principal: Principal): Promise<{ reports: MonthlyReportListItem[] }> {
    return this.reports.list(principal);
  }

  @Get(':period')
  @ApiOperation({ summary: 'The monthly report of a period (YYYY-MM), as the email shows it' })
  @ApiOkResponse({ type: MonthlyReportDoc })
  @ApiBadRequestResponse({
    type: ErrorBodyDoc,
    description: 'INVALID_PERIOD (not YYYY-MM), PERIOD_IN_FUTURE, PERIOD_LIVE (regenerate=1 on the current month)',
  })
  @ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'INSUFFICIENT_ROLE: only the owner can regenerate' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'PERIOD_BEFORE_WORKSPACE or PERIOD_NOT_RETAINED' })
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('period') period: string,
    @Query() query: MonthlyReportQueryDto,
  ): Promise<MonthlyReport> {
    return this.reports.get(principal, period, query.regenerate === '1');
  }
}
