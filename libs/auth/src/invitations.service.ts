import { AuditSink } from '@dl/audit';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Role } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { ValidationError } from '@dl/platform/http';
import { AccountsRepository } from './accounts.repository';
import { AlreadyMemberError, InsufficientRoleError, InvalidInvitationError, InvitationNotFoundError, InviteSignInRequiredError } from './auth.errors';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from './credential-invalidation';
import { SessionRow, SessionsRepository } from './sessions.repository';
import {
  generateInvitationToken,
  hashInvitationToken,
  INVITATION_TTL_MS,
  isWellFormedInvitationToken,
} from './invitation-token';
import { InvitationRow, InvitationsRepository } from './invitations.repository';
import { InvitationCreatedResponseDto, InvitationListResponseDto } from './member-response.dto';
import { toInvitationCreatedResponse, toInvitationResponse } from './member.mapper';
import { MembersRepository } from './members.repository';
import { PasswordHasher } from './password';
import { Principal } from './principal';
import { IssuedSession, SessionMeta, SessionsService } from './sessions.service';
import { TwoFactorRepository } from './two-factor/two-factor.repository';

/** What the invitation email says. The app decides how it is sent (the report mailer in the api). */
export interface InvitationMail {
  to: string;
  organizationName: string;
  role: Role;
  /** The `dli_` token, in clear: the only place besides the create answer where it appears. */
  token: string;
  expiresAt: Date;
  invitedByName: string | null;
}

export interface InvitationMailer {
  sendInvitation(mail: InvitationMail): Promise<void>;
}

/** Provided by an app that can send mail; without one, invitations are created but not emailed. */
export const INVITATION_MAILER = Symbol('INVITATION_MAILER');

export interface AcceptInvitationInput {
  token: string;
  name?: string;
  password?: string;
}

/**
 * Invitations (decisions §14): members join by a single-use `dli_` token they receive
 * by email and choose their own password, so nobody can hold a password for someone else's
 * account. Only the token's SHA-256 is stored.
 */
@Injectable()
export class InvitationsService {
  private readonly logger = new Logger(InvitationsService.name);

  constructor(
    private readonly invitations: InvitationsRepository,
    private readonly accounts: AccountsRepository,
    private readonly members: MembersRepository,
    private readonly sessions: SessionsService,
    private readonly sessionRows: SessionsRepository,
    private readonly passwords: PasswordHasher,
    private readonly twoFactor: TwoFactorRepository,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly audit: AuditSink,
    @Optional() @Inject(INVITATION_MAILER) private readonly mailer?: InvitationMailer,
  ) {}

  /** Invites an email that has no account yet (the caller checked); emails the token. */
  async invite(principal: Principal, email: string, role: Role): Promise<InvitationCreatedResponseDto> {
    if (role === 'OWNER' && principal.role !== 'OWNER') throw new InsufficientRoleError();
    const token = generateInvitationToken();
    const row = await this.invitations.transaction((tx) =>
      this.invitations.create(tx, principal.organizationId, {
        email,
        role,
        tokenHash: hashInvitationToken(token),
        invitedById: principal.userId ?? null,
        expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
      }),
    );
    await this.send(row, token);
    this.audit.record({ organizationId: principal.organizationId, action: 'member.invited', targetId: row.id, changes: { email, role } });
    return toInvitationCreatedResponse(row, token);
  }

  async list(principal: Principal): Promise<InvitationListResponseDto> {
    const rows = await this.invitations.listPending(principal.organizationId, new Date());
    return { invitations: rows.map(toInvitationResponse) };
  }

  async revoke(principal: Principal, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.invitations.revoke(principal.organizationId, id))) throw new InvitationNotFoundError();
    this.audit.record({ organizationId: principal.organizationId, action: 'invitation.revoked', targetId: id });
  }

  /**
   * Decisions §20, three cases by the invited email's account:
   * - none: a verified account with `name` and `password` (both required);
   * - verified: only that account, signed in (its JWT as `caller`), joins; otherwise 401;
   * - unverified: the token proves the email, so whoever made the account without it loses it:
   *   `password` (required) replaces its password and `name` (if given) its name, it becomes verified, its two-factor secret and
   *   recovery codes are removed (the one who made it set them), and every session and API key it
   *   had is revoked before the membership is added.
   * The token is consumed in the same transaction as the membership: used once, or not at all.
   * Answers like login, with a session in the inviting organization.
   */
  async accept(input: AcceptInvitationInput, caller: Principal | null, meta: SessionMeta = {}): Promise<IssuedSession> {
    if (!isWellFormedInvitationToken(input.token)) throw new InvalidInvitationError();
    const invitation = await this.invitations.findUsable(hashInvitationToken(input.token), new Date());
    if (!invitation) throw new InvalidInvitationError();
    const existing = await this.accounts.findUserByEmail(invitation.email);
    if (existing?.emailVerifiedAt && !(caller?.kind === 'session' && caller.userId === existing.id)) {
      throw new InviteSignInRequiredError();
    }
    const missing: Record<string, string> = {};
    if (!existing && !input.name?.trim()) missing.name = 'Required for a new account';
    if (!existing?.emailVerifiedAt && !input.password) missing.password = existing ? 'Required to claim this account' : 'Required for a new account';
    if (Object.keys(missing).length) throw new ValidationError(missing);
    const passwordHash = existing?.emailVerifiedAt ? undefined : await this.passwords.hash(input.password!);
    const now = new Date();
    try {
      const { userId, revokedKeys, revokedSessions } = await this.invitations.transaction(async (tx) => {
        if (!(await this.invitations.consume(tx, invitation.id, now))) throw new InvalidInvitationError();
        let revoked: string[] = [];
        let ended: SessionRow[] = [];
        let user = existing;
        if (!user) {
          const created = await this.accounts.createUser(tx, {
            email: invitation.email,
            name: input.name!.trim(),
            passwordHash: passwordHash!,
            emailVerifiedAt: now,
          });
          user = { ...created, passwordHash: passwordHash!, emailVerifiedAt: now };
        } else if (!user.emailVerifiedAt) {
          await this.accounts.setPasswordHash(user.id, passwordHash!, tx);
          if (input.name?.trim()) await this.accounts.setName(user.id, input.name.trim(), tx);
          await this.accounts.markEmailVerified(tx, user.id, now);
          await this.twoFactor.disable(user.id, tx);
          revoked = await this.accounts.revokeAllKeysOfUser(tx, user.id, now);
          ended = await this.sessionRows.revokeAllOfUser(user.id, now, undefined, tx);
        }
        if (existing && (await this.members.find(invitation.organizationId, user.id, tx))) throw new AlreadyMemberError();
        await this.members.add(tx, invitation.organizationId, user.id, invitation.role);
        return { userId: user.id, revokedKeys: revoked, revokedSessions: ended };
      });
      // A claimed account's keys and sessions stop on every instance.
      await this.invalidation.revokedKeys(revokedKeys);
      await this.invalidation.revokedSessions(revokedSessions);
      this.audit.record({
        organizationId: invitation.organizationId,
        action: 'invitation.accepted',
        targetId: invitation.id,
        changes: { email: invitation.email, role: invitation.role },
        actor: { type: 'user', id: userId },
      });
      return await this.sessions.start(userId, invitation.organizationId, invitation.role, meta);
    } catch (err) {
      // The email signed up between our read and the insert: nothing was written (rolled back).
      if (this.accounts.isUniqueViolation(err)) throw new InvalidInvitationError();
      throw err;
    }
  }

  /** A mail failure does not undo the invitation: the inviter has the token in the answer. */
  private async send(row: InvitationRow, token: string): Promise<void> {
    if (!this.mailer) return;
    try {
      await this.mailer.sendInvitation({
        to: row.email,
        organizationName: (await this.invitations.organizationName(row.organizationId)) ?? 'an organization',
        role: row.role,
        token,
        expiresAt: row.expiresAt,
        invitedByName: row.invitedBy?.name ?? null,
      });
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, invitationId: row.id }, 'invitation email could not be sent');
    }
  }
}
