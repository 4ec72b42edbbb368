import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx } from '@dl/platform/db';

export interface ApiKeyRow {
  id: string;
  userId: string;
  name: string;
  keyPrefix: string;
  keyHash: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  scopes: string[];
  expiresAt: Date | null;
}

/** What a key's PATCH may change (decisions §25). */
export interface ApiKeyChanges {
  name?: string;
  scopes?: string[];
  expiresAt?: Date | null;
}

const SELECT = {
  id: true,
  userId: true,
  name: true,
  keyPrefix: true,
  keyHash: true,
  createdAt: true,
  lastUsedAt: true,
  lastUsedIp: true,
  scopes: true,
  expiresAt: true,
} as const;

/** Live (non-revoked) API keys of one organization. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  /** Serializes key creation per organization so the plan limit holds under concurrency. */
  async lockOrganization(tx: PrismaTx, organizationId: string): Promise<void> {
    await tx.$queryRaw(Prisma.sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
  }

  countLive(organizationId: string, tx: PrismaTx = this.prisma): Promise<number> {
    return tx.apiKey.count({ where: { organizationId, revokedAt: null } });
  }

  create(
    tx: PrismaTx,
    organizationId: string,
    data: { userId: string; name: string; keyHash: string; keyPrefix: string; scopes: string[]; expiresAt: Date | null },
  ): Promise<ApiKeyRow> {
    return tx.apiKey.create({ data: { organizationId, ...data }, select: SELECT });
  }

  /** Newest first; only `userId`'s keys when given. */
  list(organizationId: string, userId?: string): Promise<ApiKeyRow[]> {
    return this.prisma.apiKey.findMany({
      where: { organizationId, revokedAt: null, ...(userId ? { userId } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      select: SELECT,
    });
  }

  /** Live keys of the organization, every member's (operator use). */
  listAll(organizationId: string): Promise<ApiKeyRow[]> {
    return this.list(organizationId);
  }

  async revokeByName(organizationId: string, userId: string, name: string): Promise<string[]> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.apiKey.findMany({ where: { organizationId, userId, name, revokedAt: null }, select: { keyHash: true } });
      await tx.apiKey.updateMany({ where: { organizationId, userId, name, revokedAt: null }, data: { revokedAt: new Date() } });
      return rows.map((r) => r.keyHash);
    });
  }

  find(organizationId: string, id: string): Promise<ApiKeyRow | null> {
    return this.prisma.apiKey.findFirst({ where: { id, organizationId, revokedAt: null }, select: SELECT });
  }

  async update(organizationId: string, id: string, data: ApiKeyChanges): Promise<ApiKeyRow | null> {
    const { count } = await this.prisma.apiKey.updateMany({ where: { id, organizationId, revokedAt: null }, data });
    return count ? this.find(organizationId, id) : null;
  }

  /** Marks the key revoked; false when it was not live in this organization. */
  async revoke(organizationId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.apiKey.updateMany({
      where: { id, organizationId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return count > 0;
  }
}
