import { Inject, Injectable, Logger } from '@nestjs/common';
import { Principal } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MailerService } from '@dl/reports';
import { renderDeletionScheduledEmail } from './deletion-email';
import { OrganizationSettingsRepository, OrganizationSettingsRow } from './organization-settings.repository';

/** Tells every Owner that their organization is scheduled for deletion (the report mailer: SMTP_URL or the outbox). */
@Injectable()
export class OrganizationDeletionNotifier {
  private readonly logger = new Logger(OrganizationDeletionNotifier.name);

  constructor(
    private readonly repo: OrganizationSettingsRepository,
    private readonly mailer: MailerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Best effort: the deletion stands even if a mail cannot be sent (logged). */
  async scheduled(principal: Principal, org: OrganizationSettingsRow): Promise<void> {
    const { owners, requestedBy } = await this.repo.ownersAndRequester(principal.organizationId, principal.userId);
    const mail = renderDeletionScheduledEmail({
      organization: org.name,
      requestedBy: requestedBy ?? 'An owner',
      deletionAt: org.deletionScheduledAt!,
      settingsUrl: `${this.config.DASHBOARD_URL.replace(/\/+$/, '')}/organization`,
    });
    for (const to of owners) {
      await this.mailer.send({ to, subject: mail.subject, html: mail.html, text: mail.text }).catch((err: Error) => {
        this.logger.warn({ err: err.message, organizationId: org.id }, 'deletion email not sent');
      });
    }
  }
}
