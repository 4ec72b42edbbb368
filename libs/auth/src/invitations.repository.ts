import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx, Role } from '@dl/platform/db';

export interface InvitationRow {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  expiresAt: Date;
  createdAt: Date;
  invitedBy: { userId: string; name: string } | null;
}

const SELECT = {
  id: true,
  organizationId: true,
  email: true,
  role: true,
  expiresAt: true,
  createdAt: true,
  invitedBy: { select: { id: true, name: true } },
} as const;

type Selected = Prisma.InvitationGetPayload<{ select: typeof SELECT }>;

function toRow(r: Selected): InvitationRow {
  return {
    id: r.id,
    organizationId: r.organizationId,
    email: r.email,
    role: r.role,
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
    invitedBy: r.invitedBy ? { userId: r.invitedBy.id, name: r.invitedBy.name } : null,
  };
}

/** Invitations of one organization (every method takes its id), plus the token lookup of accept. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /**
   * Creates an invitation, replacing any pending one for the same email in this
   * organization (its token stops working: the newest invitation is the only one).
   */
  async create(
    tx: PrismaTx,
    organizationId: string,
    data: { email: string; role: Role; tokenHash: string; invitedById: string | null; expiresAt: Date },
  ): Promise<InvitationRow> {
    await tx.invitation.deleteMany({ where: { organizationId, email: data.email, acceptedAt: null } });
    const row = await tx.invitation.create({ data: { organizationId, ...data }, select: SELECT });
    return toRow(row);
  }

  /** Pending invitations (neither accepted nor expired), newest first. */
  async listPending(organizationId: string, now: Date): Promise<InvitationRow[]> {
    const rows = await this.prisma.invitation.findMany({
      where: { organizationId, acceptedAt: null, expiresAt: { gt: now } },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      select: SELECT,
    });
    return rows.map(toRow);
  }

  /** Deletes an invitation not accepted yet; false when there is none with this id here. */
  async revoke(organizationId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.invitation.deleteMany({ where: { id, organizationId, acceptedAt: null } });
    return count > 0;
  }

  /** The usable invitation of this token hash, or null (unknown, used or expired). */
  async findUsable(tokenHash: string, now: Date): Promise<InvitationRow | null> {
    const row = await this.prisma.invitation.findFirst({
      where: { tokenHash, acceptedAt: null, expiresAt: { gt: now } },
      select: SELECT,
    });
    return row ? toRow(row) : null;
  }

  /**
   * Marks the invitation used if it still is usable, atomically (two concurrent accepts:
   * one wins). Returns false when it was used, revoked or expired meanwhile.
   */
  async consume(tx: PrismaTx, id: string, now: Date): Promise<boolean> {
    const { count } = await tx.invitation.updateMany({
      where: { id, acceptedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    return count === 1;
  }

  async organizationName(organizationId: string): Promise<string | null> {
    const org = await this.prisma.organization.findUnique({ where: { id: organizationId }, select: { name: true } });
    return org?.name ?? null;
  }
}
