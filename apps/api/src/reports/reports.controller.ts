import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { MonthlyReport, MonthlyReportListItem, ReportsService } from '@dl/reports';
import { MonthlyReportQueryDto } from './reports.dto';

/** Monthly reports (Cloud): JWT or API key; regeneration is the owner's (checked by the service, in the §11 order). */
@ApiTags('reports')
@ApiBearerAuth()
@Auth(Permissions.read)
@Controller('api/reports/monthly')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  list(@CurrentPrincipal() principal: Principal): Promise<{ reports: MonthlyReportListItem[] }> {
    return this.reports.list(principal);
  }

  @Get(':period')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('period') period: string,
    @Query() query: MonthlyReportQueryDto,
  ): Promise<MonthlyReport> {
    return this.reports.get(principal, period, query.regenerate === '1');
  }
}
