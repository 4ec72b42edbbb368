import { Module } from '@nestjs/common';
import { ClicksModule } from '@dl/clicks';
import { ClicksProcessor } from './clicks.processor';
import { MaintenanceProcessor, MaintenanceSchedules } from './maintenance.processor';

/** The worker's click consumer (batched ingest) and raw click retention. */
@Module({
  imports: [ClicksModule],
  providers: [ClicksProcessor, MaintenanceProcessor, MaintenanceSchedules],
})
export class ClicksWorkerModule {}
