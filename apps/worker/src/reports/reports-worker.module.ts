import { Module } from '@nestjs/common';
import { ReportsModule } from '@dl/reports';
import { ReportsProcessor } from './reports.processor';
import { ReportsScheduler } from './reports.scheduler';

@Module({
  imports: [ReportsModule],
  providers: [ReportsProcessor, ReportsScheduler],
})
export class ReportsWorkerModule {}
