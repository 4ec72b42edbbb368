import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx } from '@dl/platform/db';

/** A session ends after this long unused, and after this long in all (decisions §20). */
export const SESSION_IDLE_MS = 30 * 24 * 3600 * 1000;
export const SESSION_ABSOLUTE_MS = 90 * 24 * 3600 * 1000;

export interface SessionRow {
  id: string;
  userId: string;
  organizationId: string;
  generation: number;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  revokedAt: Date | null;
}

const SELECT = {
  id: true,
  userId: true,
  organizationId: true,
  generation: true,
  userAgent: true,
  ip: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

/** Live: not revoked, used within the idle period, younger than the absolute one. */
function live(now: Date): Prisma.SessionWhereInput {
  return {
    revokedAt: null,
    lastUsedAt: { gt: new Date(now.getTime() - SESSION_IDLE_MS) },
    createdAt: { gt: new Date(now.getTime() - SESSION_ABSOLUTE_MS) },
  };
}

/**
 * Dashboard sessions. They belong to an account (a user signs in to one organization per
 * session), so methods are scoped by the user; the organization is a column of the row.
 */
@Injectable()
export class SessionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(
    data: { userId: string; organizationId: string; userAgent?: string | null; ip?: string | null },
    tx: PrismaTx = this.prisma,
  ): Promise<SessionRow> {
    return tx.session.create({ data, select: SELECT });
  }

  /**
   * Moves a live session from `generation` to the next one (compare-and-set: of two refreshes
   * with the same token, one wins). Null when the session is not live at that generation.
   * `lastUsedAt` is set only here (and at creation): it is the time of the last rotation.
   */
  async rotate(id: string, generation: number, now: Date): Promise<SessionRow | null> {
    const { count } = await this.prisma.session.updateMany({
      where: { id, generation, ...live(now) },
      data: { generation: { increment: 1 }, lastUsedAt: now },
    });
    if (count !== 1) return null;
    return this.prisma.session.findUnique({ where: { id }, select: SELECT });
  }

  find(id: string): Promise<SessionRow | null> {
    return this.prisma.session.findUnique({ where: { id }, select: SELECT });
  }

  /** The session when it is live. */
  findLive(id: string, now: Date): Promise<SessionRow | null> {
    return this.prisma.session.findFirst({ where: { id, ...live(now) }, select: SELECT });
  }

  /** The user's live sessions, most recently used first. */
  listLive(userId: string, now: Date): Promise<SessionRow[]> {
    return this.prisma.session.findMany({ where: { userId, ...live(now) }, orderBy: { lastUsedAt: 'desc' }, select: SELECT });
  }

  /** Revokes one of the user's sessions; null when it is not the user's or already over. */
  async revoke(userId: string, id: string, now: Date): Promise<SessionRow | null> {
    const rows = await this.prisma.session.updateManyAndReturn({
      where: { id, userId, ...live(now) },
      data: { revokedAt: now },
      select: SELECT,
    });
    return rows[0] ?? null;
  }

  /** Revokes every live session of the user (but `exceptId`), returning them. */
  revokeAllOfUser(userId: string, now: Date, exceptId?: string, tx: PrismaTx = this.prisma): Promise<SessionRow[]> {
    return tx.session.updateManyAndReturn({
      where: { userId, revokedAt: null, ...(exceptId ? { id: { not: exceptId } } : {}) },
      data: { revokedAt: now },
      select: SELECT,
    });
  }
}
