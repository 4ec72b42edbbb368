import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx, Role } from '@dl/platform/db';

export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
}

/** Memberships of one organization; every method takes its id. */
@Injectable()
export class MembersRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  async list(organizationId: string): Promise<MemberRow[]> {
    const rows = await this.prisma.membership.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
      select: { userId: true, role: true, createdAt: true, user: { select: { email: true, name: true } } },
    });
    return rows.map(toRow);
  }

  async find(organizationId: string, userId: string, tx: PrismaTx = this.prisma): Promise<MemberRow | null> {
    const row = await tx.membership.findUnique({
      where: { organizationId_userId: { organizationId, userId } },
      select: { userId: true, role: true, createdAt: true, user: { select: { email: true, name: true } } },
    });
    return row ? toRow(row) : null;
  }

  async findByEmail(organizationId: string, email: string): Promise<MemberRow | null> {
    const row = await this.prisma.membership.findFirst({
      where: { organizationId, user: { email } },
      select: { userId: true, role: true, createdAt: true, user: { select: { email: true, name: true } } },
    });
    return row ? toRow(row) : null;
  }

  async add(tx: PrismaTx, organizationId: string, userId: string, role: Role): Promise<MemberRow> {
    await tx.membership.create({ data: { organizationId, userId, role } });
    return (await this.find(organizationId, userId, tx))!;
  }

  /** Serializes owner changes of one organization (the last owner cannot leave). */
  async lockOrganization(tx: PrismaTx, organizationId: string): Promise<void> {
    await tx.$queryRaw(Prisma.sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
  }

  countOwners(tx: PrismaTx, organizationId: string): Promise<number> {
    return tx.membership.count({ where: { organizationId, role: 'OWNER' } });
  }

  async setRole(tx: PrismaTx, organizationId: string, userId: string, role: Role): Promise<MemberRow> {
    await tx.membership.update({ where: { organizationId_userId: { organizationId, userId } }, data: { role } });
    return (await this.find(organizationId, userId, tx))!;
  }

  /** Removes the membership and revokes the member's keys in this organization; returns their hashes. */
  async remove(tx: PrismaTx, organizationId: string, userId: string): Promise<string[]> {
    const keys = await tx.apiKey.findMany({
      where: { organizationId, userId, revokedAt: null },
      select: { keyHash: true },
    });
    await tx.apiKey.updateMany({ where: { organizationId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
    await tx.membership.delete({ where: { organizationId_userId: { organizationId, userId } } });
    return keys.map((k) => k.keyHash);
  }
}

function toRow(r: { userId: string; role: Role; createdAt: Date; user: { email: string; name: string } }): MemberRow {
  return { userId: r.userId, email: r.user.email, name: r.user.name, role: r.role, createdAt: r.createdAt };
}
