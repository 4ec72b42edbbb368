import { Module } from '@nestjs/common';
import { LinksModule } from '@dl/links';
import { MailerService } from '@dl/reports';
import { OrganizationDeletionNotifier } from './organization-deletion.notifier';
import { OrganizationExportRepository } from './organization-export.repository';
import { OrganizationExportService } from './organization-export.service';
import { OrganizationSettingsRepository } from './organization-settings.repository';
import { OrganizationsService } from './organizations.service';

/** The organization's settings, export and scheduled deletion (decisions §20). Needs the global AuthModule. */
@Module({
  imports: [LinksModule],
  providers: [
    OrganizationSettingsRepository,
    OrganizationsService,
    OrganizationDeletionNotifier,
    MailerService,
    OrganizationExportRepository,
    OrganizationExportService,
  ],
  exports: [OrganizationsService, OrganizationExportService],
})
export class OrganizationsModule {}
