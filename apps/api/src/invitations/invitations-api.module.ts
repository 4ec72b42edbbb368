import { Global, Module } from '@nestjs/common';
import { INVITATION_MAILER } from '@dl/auth';
import { MailerService } from '@dl/reports';
import { ReportMailerInvitationMailer } from './invitation-mailer';
import { InvitationsController } from './invitations.controller';

/**
 * GET/DELETE /api/organization/invitations, and the invitation mailer the global
 * AuthModule's InvitationsService picks up (global, so that module can see it).
 */
@Global()
@Module({
  controllers: [InvitationsController],
  providers: [MailerService, { provide: INVITATION_MAILER, useClass: ReportMailerInvitationMailer }],
  exports: [INVITATION_MAILER],
})
export class InvitationsApiModule {}
