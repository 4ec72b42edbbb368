import { Module } from '@nestjs/common';
import { Clock } from './clock';
import { MailerService } from './email/mailer.service';
import { MonthlyReportsFanOut } from './monthly-fan-out.service';
import { ReportBuilder } from './report.builder';
import { ReportDeliveryService } from './report-delivery.service';
import { ReportDataRepository } from './report-data.repository';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/** Monthly reports: builder, storage, delivery. Needs PlatformModule and QueueModule in the app. */
@Module({
  providers: [Clock, ReportsRepository, ReportDataRepository, ReportBuilder, ReportsService, MailerService, ReportDeliveryService, MonthlyReportsFanOut],
  exports: [Clock, ReportsService, ReportDeliveryService, MonthlyReportsFanOut, ReportBuilder, ReportsRepository, ReportDataRepository],
})
export class ReportsModule {}
