import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Role } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { AccountsRepository } from './accounts.repository';
import { AlreadyMemberError, InsufficientRoleError, InvalidInvitationError, InvalidLoginError, InvitationNotFoundError } from './auth.errors';
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
  name: string;
  password: string;
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
    private readonly passwords: PasswordHasher,
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
    return toInvitationCreatedResponse(row, token);
  }

  async list(principal: Principal): Promise<InvitationListResponseDto> {
    const rows = await this.invitations.listPending(principal.organizationId, new Date());
    return { invitations: rows.map(toInvitationResponse) };
  }

  async revoke(principal: Principal, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.invitations.revoke(principal.organizationId, id))) throw new InvitationNotFoundError();
  }

  /**
   * Creates the account (or, when the email got one meanwhile, checks its password) and
   * the membership, and answers like login for the inviting organization. The token is
   * consumed in the same transaction as the membership: used once, or not at all.
   */
  async accept(input: AcceptInvitationInput, meta: SessionMeta = {}): Promise<IssuedSession> {
    if (!isWellFormedInvitationToken(input.token)) throw new InvalidInvitationError();
    const invitation = await this.invitations.findUsable(hashInvitationToken(input.token), new Date());
    if (!invitation) throw new InvalidInvitationError();
    const existing = await this.accounts.findUserByEmail(invitation.email);
    let passwordHash: string | undefined;
    if (existing) {
      if (!(await this.passwords.verify(input.password, existing.passwordHash))) throw new InvalidLoginError();
    } else {
      passwordHash = await this.passwords.hash(input.password);
    }
    try {
      const userId = await this.invitations.transaction(async (tx) => {
        if (!(await this.invitations.consume(tx, invitation.id, new Date()))) throw new InvalidInvitationError();
        const user = existing ?? (await this.accounts.createUser(tx, { email: invitation.email, name: input.name.trim(), passwordHash: passwordHash! }));
        if (existing && (await this.members.find(invitation.organizationId, user.id, tx))) throw new AlreadyMemberError();
        await this.members.add(tx, invitation.organizationId, user.id, invitation.role);
        return user.id;
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
