import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { AuditSink, SYSTEM_ACTOR } from '@dl/audit';
import { Tier } from '@dl/platform/db';
import { slugify } from '@dl/platform/validation';
import { AccountsRepository, OrganizationRow, UserRow } from './accounts.repository';
import { EmailTakenError, InvalidLoginError, OrganizationNotFoundError, UserNotFoundError } from './auth.errors';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from './credential-invalidation';
import { EmailVerificationService } from './email-verification.service';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password';
import { SsoEnforcement } from './sso-enforcement';
import { IssuedSession, SessionMeta, SessionsService } from './sessions.service';
import { TwoFactorService } from './two-factor/two-factor.service';
import { recordUserChange } from './user-audit';

export interface SignupInput {
  email: string;
  password: string;
  name: string;
  organizationName: string;
  tier?: Tier;
  /** The operator CLI creates accounts whose address it vouches for; signups prove theirs by email. */
  emailVerified?: boolean;
}

export interface SignupResult {
  session: IssuedSession;
  user: UserRow;
  organization: OrganizationRow;
  /** The organization's `default` template. */
  templateId: string;
}

/** A login: a session, or (2FA on, decisions §20) the challenge of its second step. */
export type LoginResult = IssuedSession | { twoFactorRequired: true; challengeToken: string };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Signup, login and the organization-level operations of the operator CLI. */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    private readonly accounts: AccountsRepository,
    private readonly sessions: SessionsService,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditSink,
    @Optional() private readonly throttle?: LoginThrottle,
    @Optional() private readonly twoFactor?: TwoFactorService,
    @Optional() private readonly verification?: EmailVerificationService,
    @Optional() private readonly sso?: SsoEnforcement,
  ) {}

  /** A new user owning a new organization (FREE unless told) with its `default` template, all in one transaction. */
  async signup(input: SignupInput, meta: SessionMeta = {}): Promise<SignupResult> {
    const email = normalizeEmail(input.email);
    // The email first: a taken address costs a lookup, not a slow hash (decisions §14).
    if (await this.accounts.findUserByEmail(email)) throw new EmailTakenError();
    const passwordHash = await this.passwords.hash(input.password);
    const base = slugify(input.organizationName, 40) || 'org';
    for (let attempt = 0; ; attempt++) {
      const slug = attempt === 0 ? base : `${base}-${randomBytes(3).toString('hex')}`;
      try {
        const created = await this.accounts.transaction(async (tx) => {
          if (attempt === 0 && (await this.accounts.slugTaken(slug, tx))) return null;
          const user = await this.accounts.createUser(tx, {
            email,
            name: input.name.trim(),
            passwordHash,
            emailVerifiedAt: input.emailVerified ? new Date() : null,
          });
          const org = await this.accounts.createOrganization(tx, {
            name: input.organizationName.trim(),
            slug,
            tier: input.tier ?? 'FREE',
            ownerId: user.id,
          });
          return { user, ...org };
        });
        if (!created) continue;
        if (!input.emailVerified) await this.verification?.sendAfterSignup(created.user);
        return {
          session: await this.sessions.start(created.user.id, created.organization.id, 'OWNER', meta),
          user: created.user,
          organization: created.organization,
          templateId: created.templateId,
        };
      } catch (err) {
        if (!this.accounts.isUniqueViolation(err)) throw err;
        if (/email/.test(JSON.stringify((err as { meta?: unknown }).meta ?? {}))) throw new EmailTakenError();
        if (attempt >= 5) throw err;
      }
    }
  }

  /** Email + password → session for the given organization (default: the user's first). */
  async login(input: { email: string; password: string; organizationId?: string }, meta: SessionMeta = {}): Promise<LoginResult> {
    const email = normalizeEmail(input.email);
    // The attempt is counted before the slow check, atomically: parallel guesses cannot overtake the count.
    await this.throttle?.reserve(email);
    // An enforced SSO domain refuses every password, right or wrong (a policy of the domain, not of the account).
    await this.sso?.assertPasswordAllowed(email);
    const user = await this.accounts.findUserByEmail(email);
    const ok = await this.passwords.verify(input.password, user?.passwordHash);
    if (!user || !ok) throw new InvalidLoginError();
    const memberships = await this.accounts.membershipsOfUser(user.id);
    const membership = input.organizationId
      ? memberships.find((m) => m.organizationId === input.organizationId)
      : memberships[0];
    if (!membership) throw new InvalidLoginError();
    await this.throttle?.succeeded(email);
    if (this.passwords.needsRehash(user.passwordHash)) await this.upgradeHash(user.id, user.passwordHash, input.password);
    const challengeToken = await this.twoFactor?.challengeFor(user.id, membership.organizationId);
    if (challengeToken) return { twoFactorRequired: true, challengeToken };
    return this.sessions.start(user.id, membership.organizationId, membership.role, meta);
  }

  /**
   * Decisions §14: a hash made at a lower cost is replaced at the next successful login,
   * while the password is at hand. Only if the row still holds the hash we verified; a
   * failure is logged and the login still succeeds.
   */
  private async upgradeHash(userId: string, verifiedHash: string, password: string): Promise<void> {
    try {
      await this.accounts.replacePasswordHash(userId, verifiedHash, await this.passwords.hash(password));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, userId }, 'password hash upgrade failed');
    }
  }

  /** Operator action (the demo account of `npm start`): sets a user's password. */
  async resetPassword(email: string, password: string): Promise<void> {
    const user = await this.accounts.findUserByEmail(normalizeEmail(email));
    if (!user) throw new UserNotFoundError(normalizeEmail(email));
    await this.accounts.setPasswordHash(user.id, await this.passwords.hash(password));
    recordUserChange(this.audit, (await this.accounts.membershipsOfUser(user.id)).map((m) => m.organizationId), user.id, 'user.password_reset', SYSTEM_ACTOR);
  }

  /** `<org>` of the CLI: id or slug. */
  async findOrganization(ref: string): Promise<OrganizationRow> {
    const org = await this.accounts.findOrganizationByRef(ref);
    if (!org) throw new OrganizationNotFoundError(ref);
    return org;
  }

  async setTier(ref: string, tier: Tier): Promise<OrganizationRow> {
    const org = await this.findOrganization(ref);
    const updated = await this.accounts.setTier(org.id, tier);
    if (org.tier !== tier) this.audit.record({ organizationId: org.id, action: 'billing.plan_changed', targetId: org.id, changes: { tier: { from: org.tier, to: tier }, via: 'operator' } });
    await this.invalidation.organizationChanged(org.id);
    return updated;
  }
}
