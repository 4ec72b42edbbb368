import { Module } from '@nestjs/common';
import { LinksModule } from '@dl/links';
import { MailerService } from '@dl/reports';
import { OrganizationDeletionNotifier } from './organization-deletion.notifier';
import { OrganizationSettingsRepository } from './organization-settings.repository';
import { OrganizationsService } from './organizations.service';

/** The organization's settings, export and scheduled deletion (decisions §20). Needs the global AuthModule. */
@Module({
  imports: [LinksModule],
  providers: [OrganizationSettingsRepository, OrganizationsService, OrganizationDeletionNotifier, MailerService],
  exports: [OrganizationsService],
})
export class OrganizationsModule {}
