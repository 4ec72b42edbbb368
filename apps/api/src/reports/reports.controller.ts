import { Param, Query } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';
import { MonthlyReportDto, MonthlyReportListDto, ReportsService } from '@dl/reports';
import { MonthlyReportQueryDto } from './reports.dto';

/** Monthly reports (Cloud): JWT or API key; regeneration is the owner's (checked by the service, in the §11 order). */
@ApiController('api/reports/monthly', 'reports', Auth(Permissions.read, { scope: 'analytics:read' }))
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Endpoint.get({ summary: 'Every retained monthly report period, newest first', response: MonthlyReportListDto })
  list(@CurrentPrincipal() principal: Principal): Promise<MonthlyReportListDto> {
    return this.reports.list(principal);
  }

  @Endpoint.get(':period', {
    summary: 'The monthly report of a period (YYYY-MM), as the email shows it',
    response: MonthlyReportDto,
    errors: {
      400: 'INVALID_PERIOD (not YYYY-MM), PERIOD_IN_FUTURE, PERIOD_LIVE (regenerate=1 on the current month)',
      403: 'INSUFFICIENT_ROLE: only the owner can regenerate',
      404: 'PERIOD_BEFORE_WORKSPACE or PERIOD_NOT_RETAINED',
    },
  })
  get(@CurrentPrincipal() principal: Principal, @Param('period') period: string, @Query() query: MonthlyReportQueryDto): Promise<MonthlyReportDto> {
    return this.reports.get(principal, period, query.regenerate === '1');
  }
}
