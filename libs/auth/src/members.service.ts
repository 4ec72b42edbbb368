import { AuditSink } from '@dl/audit';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { PrismaTx, Role } from '@dl/platform/db';
import { ValidationError } from '@dl/platform/http';
import { isUuid } from '@dl/platform/validation';
import { AccountsRepository } from './accounts.repository';
import { normalizeEmail } from './accounts.service';
import { AlreadyMemberError, InsufficientRoleError, LastOwnerError, MemberNotFoundError } from './auth.errors';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from './credential-invalidation';
import { InvitationsService } from './invitations.service';
import { InvitationCreatedResponseDto, MemberListResponseDto, MemberResponseDto } from './member-response.dto';
import { toMemberResponse } from './member.mapper';
import { MemberRow, MembersRepository } from './members.repository';
import { PasswordHasher } from './password';
import { Principal } from './principal';

/** Operator CLI and test seeding: a member with a password set by whoever runs the machine. */
export interface AddMemberInput {
  email: string;
  role: Role;
  /** Needed when no account exists for the email yet. */
  name?: string;
  password?: string;
}

/**
 * Members of an organization (Owner and Admin, decisions §2): only an Owner grants or
 * takes away the owner role, the last owner stays, and removing a member revokes
 * their API keys in the same transaction.
 */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly accounts: AccountsRepository,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditSink,
    @Optional() private readonly invitations?: InvitationsService,
  ) {}

  async list(principal: Principal): Promise<MemberListResponseDto> {
    return { members: (await this.members.list(principal.organizationId)).map(toMemberResponse) };
  }

  /** The member with this email (operator CLI `key:create --email`). */
  async findByEmail(organizationId: string, email: string): Promise<MemberRow> {
    const row = await this.members.findByEmail(organizationId, normalizeEmail(email));
    if (!row) throw new MemberNotFoundError(`No member with email ${normalizeEmail(email)} in this organization`);
    return row;
  }

  /**
   * Decisions §20: membership only by an invitation the invitee accepts. Every email, with an
   * account or not, gets an invitation (token emailed, shown once) and the same answer, so the
   * route tells nothing about the address. Inviting a current member is 409 (the inviter can list
   * the members anyway).
   */
  async add(principal: Principal, input: { email: string; role: Role }): Promise<InvitationCreatedResponseDto> {
    if (input.role === 'OWNER' && principal.role !== 'OWNER') throw new InsufficientRoleError();
    const email = normalizeEmail(input.email);
    if (await this.members.findByEmail(principal.organizationId, email)) throw new AlreadyMemberError();
    if (!this.invitations) throw new Error('InvitationsService is not provided');
    return this.invitations.invite(principal, email, input.role);
  }

  /**
   * Operator CLI and test seeding: adds a member at once, creating the account (its address
   * vouched for by the operator) when the email is new. With `requirePasswordMatch` (operator
   * CLI) an existing account must present its password.
   */
  async addToOrganization(organizationId: string, input: AddMemberInput, requirePasswordMatch: boolean): Promise<MemberRow> {
    const email = normalizeEmail(input.email);
    const existing = await this.accounts.findUserByEmail(email);
    if (!existing) {
      const missing: Record<string, string> = {};
      if (!input.name?.trim()) missing.name = 'Required for a new user';
      if (!input.password) missing.password = 'Required for a new user';
      if (Object.keys(missing).length) throw new ValidationError(missing);
    } else if (requirePasswordMatch && !(input.password && (await this.passwords.verify(input.password, existing.passwordHash)))) {
      throw new ValidationError({ password: 'Does not match the existing account of this email' });
    }
    const passwordHash = existing ? undefined : await this.passwords.hash(input.password!);
    try {
      const added = await this.members.transaction(async (tx) => {
        const user =
          existing ??
          (await this.accounts.createUser(tx, { email, name: input.name!.trim(), passwordHash: passwordHash!, emailVerifiedAt: new Date() }));
        if (existing && (await this.members.find(organizationId, user.id, tx))) throw new AlreadyMemberError();
        return this.members.add(tx, organizationId, user.id, input.role);
      });
      this.audit.record({ organizationId, action: 'member.joined', targetId: added.userId, changes: { email, role: input.role } });
      return added;
    } catch (err) {
      if (this.accounts.isUniqueViolation(err)) throw new AlreadyMemberError();
      throw err;
    }
  }

  async changeRole(principal: Principal, userId: string, role: Role): Promise<MemberResponseDto> {
    const organizationId = principal.organizationId;
    const row = await this.members.transaction(async (tx) => {
      const target = await this.lockedMember(tx, organizationId, userId);
      if ((role === 'OWNER' || target.role === 'OWNER') && principal.role !== 'OWNER') throw new InsufficientRoleError();
      if (target.role === 'OWNER' && role !== 'OWNER' && (await this.members.countOwners(tx, organizationId)) <= 1) {
        throw new LastOwnerError();
      }
      return { updated: await this.members.setRole(tx, organizationId, userId, role), from: target.role };
    });
    this.audit.record({ organizationId, action: 'member.role_changed', targetId: userId, changes: { role: { from: row.from, to: role } } });
    await this.invalidation.organizationChanged(organizationId);
    return toMemberResponse(row.updated);
  }

  async remove(principal: Principal, userId: string): Promise<void> {
    const organizationId = principal.organizationId;
    const revoked = await this.members.transaction(async (tx) => {
      const target = await this.lockedMember(tx, organizationId, userId);
      if (target.role === 'OWNER') {
        if (principal.role !== 'OWNER') throw new InsufficientRoleError();
        if ((await this.members.countOwners(tx, organizationId)) <= 1) throw new LastOwnerError();
      }
      return { keys: await this.members.remove(tx, organizationId, userId), role: target.role };
    });
    this.audit.record({ organizationId, action: 'member.removed', targetId: userId, changes: { role: revoked.role } });
    await this.invalidation.revokedKeys(revoked.keys);
    await this.invalidation.organizationChanged(organizationId);
  }

  /** The member `userId`, read under the organization's lock (owner counts stay exact); or 404. */
  private async lockedMember(tx: PrismaTx, organizationId: string, userId: string): Promise<MemberRow> {
    if (!isUuid(userId)) throw new MemberNotFoundError();
    await this.members.lockOrganization(tx, organizationId);
    const target = await this.members.find(organizationId, userId, tx);
    if (!target) throw new MemberNotFoundError();
    return target;
  }
}
