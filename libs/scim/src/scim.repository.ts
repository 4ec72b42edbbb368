import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx, Role } from '@dl/platform/db';

export interface ScimMemberRow {
  userId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: Date;
  updatedAt: Date;
}

const MEMBER_SELECT = { userId: true, role: true, createdAt: true, updatedAt: true, user: { select: { email: true, name: true } } } as const;
type MemberSelected = { userId: string; role: Role; createdAt: Date; updatedAt: Date; user: { email: string; name: string } };
const toRow = (r: MemberSelected): ScimMemberRow => ({ userId: r.userId, email: r.user.email, name: r.user.name, role: r.role, createdAt: r.createdAt, updatedAt: r.updatedAt });

/** What SCIM reads and writes: an organization's tokens and members. Every member method takes the organization. */
@Injectable()
export class ScimRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  createToken(organizationId: string, tokenHash: string): Promise<{ id: string; createdAt: Date }> {
    return this.prisma.scimToken.create({ data: { organizationId, tokenHash }, select: { id: true, createdAt: true } });
  }

  listTokens(organizationId: string): Promise<Array<{ id: string; createdAt: Date; lastUsedAt: Date | null }>> {
    return this.prisma.scimToken.findMany({
      where: { organizationId, revokedAt: null },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: { id: true, createdAt: true, lastUsedAt: true },
    });
  }

  async revokeToken(organizationId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.scimToken.updateMany({ where: { id, organizationId, revokedAt: null }, data: { revokedAt: new Date() } });
    return count > 0;
  }

  /** The lookup behind SCIM authentication: derives the organization, so it cannot take it. */
  findToken(tokenHash: string): Promise<{ id: string; organizationId: string; tokenHash: string; revokedAt: Date | null } | null> {
    return this.prisma.scimToken.findUnique({ where: { tokenHash }, select: { id: true, organizationId: true, tokenHash: true, revokedAt: true } });
  }

  async touchToken(organizationId: string, id: string, at: Date): Promise<void> {
    await this.prisma.scimToken.updateMany({ where: { id, organizationId }, data: { lastUsedAt: at } });
  }

  /** Members in a stable order (joined first), `userName` (an email, case-insensitive) when given. */
  async listMembers(organizationId: string, o: { email?: string; offset: number; limit: number }): Promise<{ total: number; rows: ScimMemberRow[] }> {
    const where: Prisma.MembershipWhereInput = { organizationId, ...(o.email !== undefined ? { user: { email: o.email.toLowerCase() } } : {}) };
    const [total, rows] = await Promise.all([
      this.prisma.membership.count({ where }),
      o.limit > 0
        ? this.prisma.membership.findMany({ where, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }], skip: o.offset, take: o.limit, select: MEMBER_SELECT })
        : Promise.resolve([]),
    ]);
    return { total, rows: rows.map(toRow) };
  }

  async findMember(organizationId: string, userId: string, tx: PrismaTx = this.prisma): Promise<ScimMemberRow | null> {
    const row = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: MEMBER_SELECT });
    return row ? toRow(row) : null;
  }

  listByRole(organizationId: string, role: Role): Promise<ScimMemberRow[]> {
    return this.prisma.membership
      .findMany({ where: { organizationId, role }, orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }], select: MEMBER_SELECT })
      .then((rows) => rows.map(toRow));
  }

  /** The account of an email across the service (SCIM creates it when missing). */
  findUserByEmail(tx: PrismaTx, email: string): Promise<{ id: string } | null> {
    return tx.user.findUnique({ where: { email }, select: { id: true } });
  }

  createUser(tx: PrismaTx, data: { email: string; name: string; passwordHash: string }): Promise<{ id: string }> {
    return tx.user.create({ data: { ...data, emailVerifiedAt: new Date() }, select: { id: true } });
  }

  async addMember(tx: PrismaTx, organizationId: string, userId: string, role: Role): Promise<void> {
    await tx.membership.create({ data: { organizationId, userId, role } });
  }

  async setRole(tx: PrismaTx, organizationId: string, userId: string, role: Role): Promise<void> {
    await tx.membership.update({ where: { organizationId_userId: { organizationId, userId } }, data: { role } });
  }

  async setName(tx: PrismaTx, organizationId: string, userId: string, name: string): Promise<void> {
    // Only a member of this organization: the where clause names the membership.
    await tx.user.updateMany({ where: { id: userId, memberships: { some: { organizationId } } }, data: { name } });
  }

  countOwners(tx: PrismaTx, organizationId: string): Promise<number> {
    return tx.membership.count({ where: { organizationId, role: 'OWNER' } });
  }

  async lockOrganization(tx: PrismaTx, organizationId: string): Promise<void> {
    await tx.$queryRaw(Prisma.sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
  }

  /** Ends the membership: the member's keys in this organization are revoked (their hashes returned). */
  async removeMember(tx: PrismaTx, organizationId: string, userId: string): Promise<string[]> {
    const keys = await tx.apiKey.findMany({ where: { organizationId, userId, revokedAt: null }, select: { keyHash: true } });
    await tx.apiKey.updateMany({ where: { organizationId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
    await tx.membership.delete({ where: { organizationId_userId: { organizationId, userId } } });
    return keys.map((k) => k.keyHash);
  }
}
