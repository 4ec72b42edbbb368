import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, Role, Tier } from '@dl/platform/db';
import type { ApiKeyScope } from './api-key-scopes';

export interface ApiKeyCredentialRow {
  id: string;
  organizationId: string;
  userId: string;
  keyHash: string;
  revoked: boolean;
  /** Role of the key's creator in the key's organization; null once they left. */
  role: Role | null;
  tier: Tier;
  scopes: ApiKeyScope[] | null;
  expiresAt: Date | null;
  deletionScheduled: boolean;
  /** The organization is suspended (decisions §22). */
  suspended: boolean;
}

export interface MembershipCredentialRow {
  role: Role;
  tier: Tier;
  /** The organization requires 2FA and this member has not enabled it. */
  twoFactorMissing: boolean;
  deletionScheduled: boolean;
  suspended: boolean;
}

/**
 * The lookups behind authentication. They run on a cache miss only. These are the
 * queries that derive the organization from a credential, so they cannot take it.
 */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyCredentialRow | null> {
    const rows = await this.prisma.$queryRaw<ApiKeyCredentialRow[]>(Prisma.sql`
      SELECT k.id, k.organization_id AS "organizationId", k.user_id AS "userId", k.key_hash AS "keyHash",
             (k.revoked_at IS NOT NULL) AS revoked, m.role::text AS role, o.tier::text AS tier,
             k.scopes, k.expires_at AS "expiresAt",
             (o.deletion_scheduled_at IS NOT NULL) AS "deletionScheduled",
             (o.suspended_at IS NOT NULL) AS "suspended"
        FROM api_keys k
        JOIN organizations o ON o.id = k.organization_id
        LEFT JOIN memberships m ON m.organization_id = k.organization_id AND m.user_id = k.user_id
       WHERE k.key_hash = ${keyHash}`);
    return rows[0] ?? null;
  }

  async findMembership(organizationId: string, userId: string): Promise<MembershipCredentialRow | null> {
    const rows = await this.prisma.$queryRaw<MembershipCredentialRow[]>(Prisma.sql`
      SELECT m.role::text AS role, o.tier::text AS tier,
             (o.require_two_factor AND u.two_factor_enabled_at IS NULL) AS "twoFactorMissing",
             (o.deletion_scheduled_at IS NOT NULL) AS "deletionScheduled",
             (o.suspended_at IS NOT NULL) AS "suspended"
        FROM memberships m JOIN organizations o ON o.id = m.organization_id JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = ${organizationId}::uuid AND m.user_id = ${userId}::uuid`);
    return rows[0] ?? null;
  }

  /**
   * The member's role in a live session of theirs (not revoked, used within 30 days, younger than
   * 90): what a dashboard JWT is worth on a cache miss. One indexed join.
   */
  async findSessionMembership(organizationId: string, userId: string, sessionId: string): Promise<MembershipCredentialRow | null> {
    const rows = await this.prisma.$queryRaw<MembershipCredentialRow[]>(Prisma.sql`
      SELECT m.role::text AS role, o.tier::text AS tier,
             (o.require_two_factor AND u.two_factor_enabled_at IS NULL) AS "twoFactorMissing",
             (o.deletion_scheduled_at IS NOT NULL) AS "deletionScheduled",
             (o.suspended_at IS NOT NULL) AS "suspended"
        FROM sessions s
        JOIN memberships m ON m.organization_id = s.organization_id AND m.user_id = s.user_id
        JOIN organizations o ON o.id = s.organization_id
        JOIN users u ON u.id = s.user_id
       WHERE s.id = ${sessionId}::uuid AND s.organization_id = ${organizationId}::uuid AND s.user_id = ${userId}::uuid
         AND s.revoked_at IS NULL
         AND s.last_used_at > now() - interval '30 days' AND s.created_at > now() - interval '90 days'`);
    return rows[0] ?? null;
  }

  /** Sets lastUsedAt and lastUsedIp unless they were set less than a minute ago (a no-op matches no row). */
  async touchApiKey(organizationId: string, apiKeyId: string, at: Date, ip: string | null): Promise<void> {
    await this.prisma.$executeRaw(Prisma.sql`
      UPDATE api_keys SET last_used_at = ${at}, last_used_ip = ${ip}
       WHERE id = ${apiKeyId}::uuid AND organization_id = ${organizationId}::uuid AND revoked_at IS NULL
         AND (last_used_at IS NULL OR last_used_at < ${at}::timestamptz - interval '1 minute')`);
  }
}
