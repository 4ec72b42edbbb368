import { Module } from '@nestjs/common';
import { ReportsModule } from '@dl/reports';
import { ReportsController } from './reports.controller';

@Module({
  imports: [ReportsModule],
  controllers: [ReportsController],
})
export class ReportsApiModule {}
