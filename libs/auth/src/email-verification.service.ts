import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { TooManyRequestsError } from '@dl/platform/http';
import { renderAccountEmail } from './account-email';
import { ACCOUNT_MAILER, AccountMailer, MailThrottle } from './account-mailer';
import { AccountsRepository } from './accounts.repository';
import { InvalidEmailTokenError } from './auth.errors';
import { EMAIL_TOKEN_TTL_MS, generateEmailToken, hashEmailToken, isWellFormedEmailToken } from './email-token';
import { EmailTokensRepository } from './email-tokens.repository';

/**
 * Email verification (decisions §20): signup emails a `dlv_` link (24 h, single use, only its
 * SHA-256 stored); following it marks the address proven. An unverified account keeps full use
 * of its own organization; what verification guards is who may claim the address later.
 */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new Logger(EmailVerificationService.name);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly tokens: EmailTokensRepository,
    private readonly throttle: MailThrottle,
    @Optional() @Inject(ACCOUNT_MAILER) private readonly mailer?: AccountMailer,
  ) {}

  /** After signup: a verification email (a mail failure is logged, the signup stands). */
  async sendAfterSignup(user: { id: string; email: string; name: string }): Promise<void> {
    await this.throttle.claim('verify', user.id);
    await this.send(user).catch((err: Error) => this.logger.warn({ err: err.message, userId: user.id }, 'verification email not sent'));
  }

  /** POST /auth/resend-verification: one email a minute (429 with retryAfter), none when already verified. */
  async resend(userId: string): Promise<void> {
    const user = await this.accounts.findUser(userId);
    if (!user || user.emailVerifiedAt) return;
    const wait = await this.throttle.claim('verify', user.id);
    if (wait !== null) throw new TooManyRequestsError(wait);
    await this.send(user);
  }

  /** POST /auth/verify-email: unknown, used, expired or malformed → 400 `Invalid or expired token`. */
  async verify(token: unknown): Promise<void> {
    if (!isWellFormedEmailToken('VERIFY', token)) throw new InvalidEmailTokenError();
    const now = new Date();
    await this.tokens.transaction(async (tx) => {
      const used = await this.tokens.consume(tx, 'VERIFY', hashEmailToken(token), now);
      if (!used) throw new InvalidEmailTokenError();
      await this.accounts.markEmailVerified(tx, used.userId, now);
    });
  }

  private async send(user: { id: string; email: string; name: string }): Promise<void> {
    if (!this.mailer) return;
    const token = generateEmailToken('VERIFY');
    await this.tokens.create(user.id, 'VERIFY', hashEmailToken(token), new Date(Date.now() + EMAIL_TOKEN_TTL_MS.VERIFY));
    const mail = renderAccountEmail({
      subject: 'Confirm your email address',
      eyebrow: 'Your account',
      heading: 'Confirm your email address',
      lines: [
        `Hello ${user.name}, please confirm that ${user.email} is your address.`,
        'The link works once, for 24 hours. Confirming lets you accept invitations and recover your password by email.',
      ],
      action: { label: 'Confirm my email', url: `${this.mailer.dashboardUrl}/verify-email#token=${token}` },
      code: token,
      footer: 'If you did not create this account, ignore this email: nothing happens without the link.',
    });
    await this.mailer.send(user.email, mail);
  }
}
