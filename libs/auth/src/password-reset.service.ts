import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { ValidationError } from '@dl/platform/http';
import { renderAccountEmail } from './account-email';
import { ACCOUNT_MAILER, AccountMailer, MailThrottle } from './account-mailer';
import { AccountsRepository } from './accounts.repository';
import { normalizeEmail } from './accounts.service';
import { InvalidEmailTokenError, InvalidSessionError } from './auth.errors';
import { EMAIL_TOKEN_TTL_MS, generateEmailToken, hashEmailToken, isWellFormedEmailToken } from './email-token';
import { EmailTokensRepository } from './email-tokens.repository';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password';
import { Principal } from './principal';
import { IssuedSession, SessionMeta, SessionsService } from './sessions.service';
import { SsoEnforcement } from './sso-enforcement';
import { recordUserChange } from './user-audit';

/**
 * Password reset and change (decisions §20). A reset request answers the same for any address
 * and does its work after the answer (see forgot); the emailed `dlr_` token lasts an hour and
 * works once. Both a reset and a change end the user's other sessions.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tokens: EmailTokensRepository,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly throttle: MailThrottle,
    private readonly audit: AuditSink,
    @Optional() private readonly loginThrottle?: LoginThrottle,
    @Optional() @Inject(ACCOUNT_MAILER) private readonly mailer?: AccountMailer,
    @Optional() private readonly sso?: SsoEnforcement,
  ) {}

  /**
   * The part of a reset request answered before the 202: an email of an enforced SSO domain is
   * refused (403) at once, since the domain's policy is not a secret of any account.
   */
  async assertResetAllowed(email: string): Promise<void> {
    await this.sso?.assertPasswordAllowed(normalizeEmail(email));
  }

  /**
   * POST /auth/forgot-password. The caller answers 202 before this runs (not awaited), so the
   * answer's timing cannot tell a known address from an unknown one; one email a minute per address.
   */
  async forgot(rawEmail: string): Promise<void> {
    const email = normalizeEmail(rawEmail);
    if ((await this.throttle.claim('reset', email)) !== null) return;
    const user = await this.accounts.findUserByEmail(email);
    if (!user || !this.mailer) return;
    const token = generateEmailToken('RESET');
    await this.tokens.create(user.id, 'RESET', hashEmailToken(token), new Date(Date.now() + EMAIL_TOKEN_TTL_MS.RESET));
    const mail = renderAccountEmail({
      subject: 'Reset your password',
      eyebrow: 'Your account',
      heading: 'Choose a new password',
      lines: [
        `Someone asked to reset the password of ${user.email}. If it was you, choose a new one: the link works once, for one hour.`,
        'Resetting signs out every other session of your account.',
      ],
      action: { label: 'Choose a new password', url: `${this.mailer.dashboardUrl}/reset-password#token=${token}` },
      code: token,
      footer: 'If you did not ask for this, ignore this email: your password stays as it is.',
    });
    await this.mailer.send(user.email, mail);
  }

  /** Runs forgot() detached from the request, logging a failure. */
  forgetLater(email: string): void {
    void this.forgot(email).catch((err: Error) => this.logger.warn({ err: err.message }, 'password reset email not sent'));
  }

  /**
   * POST /auth/reset-password: the new password, the address proven, every session ended, and a
   * new session (in the user's first organization) answered like login.
   */
  async reset(token: unknown, password: string, meta: SessionMeta = {}): Promise<IssuedSession> {
    if (!isWellFormedEmailToken('RESET', token)) throw new InvalidEmailTokenError();
    const passwordHash = await this.passwords.hash(password);
    const now = new Date();
    const userId = await this.tokens.transaction(async (tx) => {
      const used = await this.tokens.consume(tx, 'RESET', hashEmailToken(token), now);
      if (!used) throw new InvalidEmailTokenError();
      // A token mailed before the domain's SSO was enforced: refused, nothing changed (the transaction rolls back).
      const owner = await this.accounts.findUser(used.userId);
      if (owner) await this.sso?.assertPasswordAllowed(owner.email);
      await this.accounts.setPasswordHash(used.userId, passwordHash, tx);
      await this.accounts.markEmailVerified(tx, used.userId, now);
      return used.userId;
    });
    await this.sessions.revokeAllOfUser(userId);
    const user = await this.accounts.findUser(userId);
    if (user) await this.loginThrottle?.succeeded(user.email);
    const memberships = await this.accounts.membershipsOfUser(userId);
    recordUserChange(this.audit, memberships.map((m) => m.organizationId), userId, 'user.password_reset');
    const membership = memberships[0];
    if (!membership) throw new InvalidSessionError();
    return this.sessions.start(userId, membership.organizationId, membership.role, meta);
  }

  /** POST /auth/change-password: the current password first (a wrong one is a validation error); other sessions end. */
  async change(principal: Principal, currentPassword: string, newPassword: string): Promise<void> {
    const user = await this.accounts.findUser(principal.userId);
    if (!user) throw new InvalidSessionError();
    await this.loginThrottle?.reserve(user.email);
    if (!(await this.passwords.verify(currentPassword, user.passwordHash))) {
      throw new ValidationError({ currentPassword: 'Wrong password' });
    }
    await this.loginThrottle?.succeeded(user.email);
    const replaced = await this.accounts.replacePasswordHash(user.id, user.passwordHash, await this.passwords.hash(newPassword));
    if (!replaced) throw new ValidationError({ currentPassword: 'Wrong password' });
    await this.sessions.revokeAllOfUser(user.id, principal.sessionId);
    recordUserChange(this.audit, (await this.accounts.membershipsOfUser(user.id)).map((m) => m.organizationId), user.id, 'user.password_changed');
  }
}
