import { Module } from '@nestjs/common';
import { ClicksModule, LiveClickPublisher } from '@dl/clicks';
import { DomainsModule } from '@dl/domains';
import { OrganizationDeletionModule } from '@dl/organizations';
import { ClicksProcessor } from './clicks.processor';
import { MaintenanceProcessor, MaintenanceSchedules } from './maintenance.processor';

/** The worker's click consumer (feeding the click pipeline, whose stored clicks are published to live streams), raw click retention and the maintenance queue (domain re-checks). */
@Module({
  imports: [ClicksModule, DomainsModule, OrganizationDeletionModule],
  providers: [ClicksProcessor, MaintenanceProcessor, MaintenanceSchedules, LiveClickPublisher],
})
export class ClicksWorkerModule {}
