import { Inject, Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool, inTransaction, Prisma, PrismaService, Tier } from '@dl/platform/db';
import { entryHash, GENESIS_HASH, HashedEntry } from './audit-hash';

/** An entry as recorded, before the chain gives it `seq`, `prevHash` and `hash`. */
export type NewAuditEntry = Omit<HashedEntry, 'seq' | 'prevHash'>;

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
  private pool: Pool | undefined;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'DATABASE_URL'>,
  ) {}

  /**
   * Appends one organization's entries (in the given order) to its chain, in one transaction
   * holding the organization's chain lock: concurrent writers (other api instances, the worker)
   * take turns, so `seq` has no gap and each `prevHash` is its predecessor's hash. On a small
   * dedicated `pg` pool, one INSERT of a JSON array: the ORM's per-row work and interactive
   * transaction would cost the api more CPU than the requests it records.
   */
  async append(organizationId: string, entries: readonly NewAuditEntry[]): Promise<void> {
    await inTransaction(this.writePool(), async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`audit:${organizationId}`]);
      const head = await client.query<{ seq: string; hash: string }>(
        // max(seq), not ORDER BY seq DESC LIMIT 1: under concurrent appends the latter was seen to
        // return the head as it was before the previous lock holder's commit (seq collisions).
        `SELECT seq::text AS seq, hash FROM audit_entries
          WHERE organization_id = $1::uuid AND seq = (SELECT max(seq) FROM audit_entries WHERE organization_id = $1::uuid)`,
        [organizationId],
      );
      let seq = BigInt(head.rows[0]?.seq ?? '0');
      let prevHash = head.rows[0]?.hash ?? GENESIS_HASH;
      const rows = entries.map((e) => {
        seq += 1n;
        const hash = entryHash({ ...e, seq, prevHash });
        const row = {
          id: e.id,
          organization_id: e.organizationId,
          seq: seq.toString(),
          actor_type: e.actorType,
          actor_id: e.actorId,
          action: e.action,
          target_type: e.targetType,
          target_id: e.targetId,
          changes: e.changes ?? null,
          ip: e.ip,
          user_agent: e.userAgent,
          request_id: e.requestId,
          created_at: e.createdAt.toISOString(),
          prev_hash: prevHash,
          hash,
        };
        prevHash = hash;
        return row;
      });
      await client.query(
        `INSERT INTO audit_entries (id, organization_id, seq, actor_type, actor_id, action, target_type, target_id, changes,
                                    ip, user_agent, request_id, created_at, prev_hash, hash)
         SELECT id, organization_id, seq, actor_type, actor_id, action, target_type, target_id, changes,
                ip, user_agent, request_id, created_at, prev_hash, hash
           FROM json_populate_recordset(NULL::audit_entries, $1::json)`,
        [JSON.stringify(rows)],
      );
    });
  }

  /** Ends the write pool (the recorder, after its last batch). */
  async close(): Promise<void> {
    if (this.pool) await endPgPool(this.pool);
  }

  private writePool(): Pool {
    this.pool ??= createPgPool(this.config.DATABASE_URL, { max: 2 });
    return this.pool;
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
