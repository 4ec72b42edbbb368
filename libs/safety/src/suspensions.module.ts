import { Module } from '@nestjs/common';
import { AuthModule } from '@dl/auth';
import { AbuseReportsRepository } from './abuse-reports.repository';
import { AbuseReportsService } from './abuse-reports.service';
import { SuspensionsRepository } from './suspensions.repository';
import { SuspensionsService } from './suspensions.service';

/** The abuse desk: reports and suspensions (needs the app's Db and Redis modules). */
@Module({
  imports: [AuthModule],
  providers: [SuspensionsRepository, SuspensionsService, AbuseReportsRepository, AbuseReportsService],
  exports: [SuspensionsService, AbuseReportsService],
})
export class AbuseDeskModule {}
