import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, Tier } from '@dl/platform/db';
import { entryHash, GENESIS_HASH, HashedEntry } from './audit-hash';

/** An entry as recorded, before the chain gives it `seq`, `prevHash` and `hash`. */
export interface NewAuditEntry {
  id: string;
  organizationId: string;
  actorType: string;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  changes: unknown;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  createdAt: Date;
}

export interface AuditRow extends HashedEntry {
  seq: bigint;
  hash: string;
  actorName: string | null;
}

export interface AuditFilter {
  action?: string;
  actorId?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
  /** Keyset: entries strictly older than this (createdAt, id). */
  before?: { createdAt: Date; id: string };
  limit: number;
}

const ROW = Prisma.sql`
  e.id, e.organization_id AS "organizationId", e.seq, e.actor_type AS "actorType", e.actor_id AS "actorId",
  e.action, e.target_type AS "targetType", e.target_id AS "targetId", e.changes, e.ip, e.user_agent AS "userAgent",
  e.request_id AS "requestId", e.created_at AS "createdAt", e.prev_hash AS "prevHash", e.hash`;

/** The audit log of each organization: appended in hash-chain order, read newest first. */
@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Appends one organization's entries (in the given order) to its chain, in one transaction
   * holding the organization's chain lock: concurrent writers (other api instances, the worker)
   * take turns, so `seq` has no gap and each `prevHash` is its predecessor's hash.
   */
  async append(organizationId: string, entries: readonly NewAuditEntry[]): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw(Prisma.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`audit:${organizationId}`}, 0))`);
      const head = await tx.$queryRaw<Array<{ seq: bigint; hash: string }>>(Prisma.sql`
        SELECT seq, hash FROM audit_entries WHERE organization_id = ${organizationId}::uuid ORDER BY seq DESC LIMIT 1`);
      let seq = head[0]?.seq ?? 0n;
      let prevHash = head[0]?.hash ?? GENESIS_HASH;
      const rows = entries.map((e) => {
        seq += 1n;
        const row = { ...e, seq, prevHash };
        const hash = entryHash(row);
        prevHash = hash;
        return { ...row, changes: e.changes === null ? Prisma.DbNull : (e.changes as Prisma.InputJsonValue), hash };
      });
      await tx.auditEntry.createMany({ data: rows });
    });
  }

  /** Newest first (createdAt, id), with the actor's current name (a user's name, a key's name). */
  list(organizationId: string, f: AuditFilter): Promise<AuditRow[]> {
    const where: Prisma.Sql[] = [Prisma.sql`e.organization_id = ${organizationId}::uuid`];
    if (f.action) where.push(Prisma.sql`e.action = ${f.action}`);
    if (f.actorId) where.push(Prisma.sql`e.actor_id = ${f.actorId}`);
    if (f.targetId) where.push(Prisma.sql`e.target_id = ${f.targetId}`);
    if (f.from) where.push(Prisma.sql`e.created_at >= ${f.from}`);
    if (f.to) where.push(Prisma.sql`e.created_at <= ${f.to}`);
    if (f.before) where.push(Prisma.sql`(e.created_at, e.id) < (${f.before.createdAt}, ${f.before.id}::uuid)`);
    return this.prisma.$queryRaw<AuditRow[]>(Prisma.sql`
      SELECT ${ROW},
             CASE e.actor_type WHEN 'user' THEN u.name WHEN 'apiKey' THEN k.name ELSE NULL END AS "actorName"
        FROM audit_entries e
        LEFT JOIN users u ON e.actor_type = 'user' AND u.id::text = e.actor_id
        LEFT JOIN api_keys k ON e.actor_type = 'apiKey' AND k.id::text = e.actor_id AND k.organization_id = e.organization_id
       WHERE ${Prisma.join(where, ' AND ')}
       ORDER BY e.created_at DESC, e.id DESC
       LIMIT ${f.limit}`);
  }

  /** One page of the chain in `seq` order after `afterSeq` (verification walks it page by page). */
  chainPage(organizationId: string, afterSeq: bigint, limit: number): Promise<Array<HashedEntry & { seq: bigint; hash: string }>> {
    return this.prisma.$queryRaw(Prisma.sql`
      SELECT ${ROW} FROM audit_entries e
       WHERE e.organization_id = ${organizationId}::uuid AND e.seq > ${afterSeq}
       ORDER BY e.seq ASC LIMIT ${limit}`);
  }

  /** Retention: deletes the organization's entries older than `before`, at most `limit` a call; how many went. */
  async deleteOlderThan(organizationId: string, before: Date, limit: number): Promise<number> {
    return this.prisma.$executeRaw(Prisma.sql`
      DELETE FROM audit_entries WHERE id IN (
        SELECT id FROM audit_entries
         WHERE organization_id = ${organizationId}::uuid AND created_at < ${before}
         ORDER BY seq ASC LIMIT ${limit})`);
  }

  /**
   * Retention sweep (the worker): organizations holding entries older than `before`, with their
   * plan. The one query here not scoped by organization: it finds which organizations to visit.
   */
  organizationsWithEntriesBefore(before: Date): Promise<Array<{ organizationId: string; tier: Tier }>> {
    return this.prisma.$queryRaw(Prisma.sql`
      SELECT o.id AS "organizationId", o.tier::text AS tier FROM organizations o
       WHERE EXISTS (SELECT 1 FROM audit_entries e WHERE e.organization_id = o.id AND e.created_at < ${before})`);
  }
}
