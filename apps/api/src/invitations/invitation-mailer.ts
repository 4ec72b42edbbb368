import { Inject, Injectable } from '@nestjs/common';
import { AccountMailer, InvitationMail, InvitationMailer, RenderedAccountEmail, renderAccountEmail, unlinkable } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { emailDay } from '@dl/platform/mail';
import { MailerService } from '@dl/reports';

const ROLE_WORDS: Record<string, string> = { OWNER: 'an owner', ADMIN: 'an admin', MEMBER: 'a member', VIEWER: 'a viewer' };

/** Account emails (verification, reset) through the report mailer (SMTP_URL, or .eml files in MAIL_OUTBOX_DIR). */
@Injectable()
export class ReportMailerAccountMailer implements AccountMailer {
  readonly dashboardUrl: string;

  constructor(
    private readonly mailer: MailerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.dashboardUrl = config.DASHBOARD_URL.replace(/\/+$/, '');
  }

  async send(to: string, mail: RenderedAccountEmail): Promise<void> {
    await this.mailer.send({ from: this.config.MAIL_FROM, to, subject: mail.subject, text: mail.text, html: mail.html });
  }
}

/**
 * Invitation emails in the account emails' look: who invites, to which organization (its name as
 * text, never a link, decisions §20), the role, and the link to accept.
 */
@Injectable()
export class ReportMailerInvitationMailer implements InvitationMailer {
  constructor(private readonly account: ReportMailerAccountMailer) {}

  async sendInvitation(mail: InvitationMail): Promise<void> {
    const org = unlinkable(mail.organizationName);
    const who = mail.invitedByName ? `${unlinkable(mail.invitedByName)} invited you` : 'You are invited';
    const role = ROLE_WORDS[mail.role] ?? mail.role;
    const rendered = renderAccountEmail({
      subject: `You are invited to join ${org}`,
      eyebrow: 'Invitation',
      heading: `Join ${org}`,
      lines: [
        `${who} to join ${org} as ${role}.`,
        `The invitation works once, until ${emailDay(mail.expiresAt)}, ${mail.expiresAt.toISOString().slice(11, 16)} UTC. You choose your own password, or sign in if you already have an account.`,
      ],
      action: { label: 'Accept the invitation', url: `${this.account.dashboardUrl}/accept-invite#token=${mail.token}` },
      code: mail.token,
      footer: 'If you did not expect this email, ignore it: the invitation expires by itself.',
    });
    await this.account.send(mail.to, rendered);
  }
}
