import { Global, Module } from '@nestjs/common';
import { ACCOUNT_MAILER, INVITATION_MAILER } from '@dl/auth';
import { MailerService } from '@dl/reports';
import { ReportMailerAccountMailer, ReportMailerInvitationMailer } from './invitation-mailer';
import { InvitationsController } from './invitations.controller';

/**
 * GET/DELETE /api/organization/invitations, and the account and invitation mailers the global
 * AuthModule's services pick up (global, so that module can see them).
 */
@Global()
@Module({
  controllers: [InvitationsController],
  providers: [
    MailerService,
    ReportMailerAccountMailer,
    { provide: ACCOUNT_MAILER, useExisting: ReportMailerAccountMailer },
    { provide: INVITATION_MAILER, useClass: ReportMailerInvitationMailer },
  ],
  exports: [INVITATION_MAILER, ACCOUNT_MAILER],
})
export class InvitationsApiModule {}
