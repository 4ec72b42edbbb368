import { Inject, Injectable } from '@nestjs/common';
import { InvitationMail, InvitationMailer } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MailerService } from '@dl/reports';

const ROLE_WORDS: Record<string, string> = { OWNER: 'an owner', ADMIN: 'an admin', MEMBER: 'a member', VIEWER: 'a viewer' };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Invitation emails through the report mailer (SMTP_URL, or .eml files in MAIL_OUTBOX_DIR). */
@Injectable()
export class ReportMailerInvitationMailer implements InvitationMailer {
  constructor(
    private readonly mailer: MailerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async sendInvitation(mail: InvitationMail): Promise<void> {
    const who = mail.invitedByName ? `${mail.invitedByName} invited you` : 'You are invited';
    const role = ROLE_WORDS[mail.role] ?? mail.role;
    const expires = mail.expiresAt.toISOString();
    const text = [
      `${who} to join ${mail.organizationName} as ${role}.`,
      '',
      'Your invitation token (single use, valid until ' + expires + '):',
      '',
      `    ${mail.token}`,
      '',
      'Paste it on the dashboard\'s "Accept invitation" page, or accept it through the API:',
      '',
      `    POST /auth/accept-invite {"token": "${mail.token}", "name": "<your name>", "password": "<at least 10 characters>"}`,
      '',
      'You choose your own password. If you did not expect this email, ignore it: the invitation expires by itself.',
    ].join('\n');
    const html =
      `<p>${escapeHtml(who)} to join <strong>${escapeHtml(mail.organizationName)}</strong> as ${escapeHtml(role)}.</p>` +
      `<p>Your invitation token (single use, valid until ${escapeHtml(expires)}):</p>` +
      `<pre style="font-size:16px">${escapeHtml(mail.token)}</pre>` +
      `<p>Paste it on the dashboard's "Accept invitation" page, or accept it through the API with ` +
      `<code>POST /auth/accept-invite</code> and your name and a password of your choice.</p>` +
      `<p>If you did not expect this email, ignore it: the invitation expires by itself.</p>`;
    await this.mailer.send({
      from: this.config.MAIL_FROM,
      to: mail.to,
      subject: `You are invited to join ${mail.organizationName}`,
      text,
      html,
    });
  }
}
