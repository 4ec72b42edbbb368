import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx } from '@dl/platform/db';

/** What a purge removed: rows per table, and the link keys and users it took with it. */
export interface PurgeResult {
  rows: Record<string, number>;
  linkKeys: string[];
  deletedUsers: number;
}

const FK_VIOLATION = '23503';

/**
 * Removes every row of one organization (decisions §20): every table with an `organization_id`
 * column (found in the catalog, so a table added later is not forgotten; a partitioned table's
 * partitions through their parent), then the organization (cascading to what hangs from it), then
 * the accounts that belonged to it alone. One transaction: all of it or nothing.
 */
@Injectable()
export class OrganizationPurgeRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Organizations whose deletion date has come. */
  async due(now: Date): Promise<string[]> {
    const rows = await this.prisma.organization.findMany({
      where: { deletionScheduledAt: { lte: now } },
      select: { id: true },
      orderBy: { deletionScheduledAt: 'asc' },
      take: 100,
    });
    return rows.map((r) => r.id);
  }

  /** The tables holding rows of organizations (not partitions: their parent covers them). */
  async organizationTables(tx: PrismaTx = this.prisma): Promise<string[]> {
    const rows = await tx.$queryRaw<Array<{ table_name: string }>>`
      SELECT c.table_name FROM information_schema.columns c
        JOIN pg_class k ON k.relname = c.table_name
        JOIN pg_namespace n ON n.oid = k.relnamespace AND n.nspname = c.table_schema
       WHERE c.table_schema = current_schema() AND c.column_name = 'organization_id'
         AND k.relkind IN ('r', 'p') AND NOT k.relispartition AND c.table_name <> 'organizations'
       ORDER BY c.table_name`;
    return rows.map((r) => r.table_name);
  }

  /** Null when the organization is gone or no longer due (restored meanwhile). */
  async purge(organizationId: string, now: Date): Promise<PurgeResult | null> {
    return this.prisma.$transaction(
      async (tx) => {
        const locked = await tx.$queryRaw<Array<{ id: string }>>`
          SELECT id FROM organizations WHERE id = ${organizationId}::uuid AND deletion_scheduled_at <= ${now} FOR UPDATE`;
        if (!locked.length) return null;
        const links = await tx.$queryRaw<Array<{ domain_name: string; short_code: string }>>`
          SELECT domain_name, short_code FROM links WHERE organization_id = ${organizationId}::uuid`;
        const soleMembers = await tx.$queryRaw<Array<{ user_id: string }>>`
          SELECT m.user_id FROM memberships m WHERE m.organization_id = ${organizationId}::uuid
             AND NOT EXISTS (SELECT 1 FROM memberships o WHERE o.user_id = m.user_id AND o.organization_id <> m.organization_id)`;
        const rows = await this.deleteRows(tx, organizationId, await this.organizationTables(tx));
        rows.organizations = await tx.$executeRaw`DELETE FROM organizations WHERE id = ${organizationId}::uuid`;
        const ids = soleMembers.map((m) => m.user_id);
        const deletedUsers = ids.length ? await tx.$executeRaw`DELETE FROM users WHERE id = ANY(${ids}::uuid[])` : 0;
        return { rows, linkKeys: links.map((l) => (l.domain_name ? `${l.domain_name}/${l.short_code}` : l.short_code)), deletedUsers };
      },
      { timeout: 30 * 60_000, maxWait: 10_000 },
    );
  }

  /**
   * Deletes the organization's rows table by table. A table another still references (a foreign key
   * without cascade) is retried after the others, so the order follows the schema without a list.
   */
  private async deleteRows(tx: PrismaTx, organizationId: string, tables: string[]): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    let pending = tables;
    while (pending.length) {
      const blocked: string[] = [];
      for (const table of pending) {
        await tx.$executeRawUnsafe('SAVEPOINT purge_table');
        try {
          counts[table] = await tx.$executeRawUnsafe(`DELETE FROM "${table}" WHERE organization_id = $1::uuid`, organizationId);
          await tx.$executeRawUnsafe('RELEASE SAVEPOINT purge_table');
        } catch (err) {
          await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT purge_table');
          if (!isForeignKeyViolation(err)) throw err;
          blocked.push(table);
        }
      }
      if (blocked.length === pending.length) throw new Error(`organization purge blocked by foreign keys: ${blocked.join(', ')}`);
      pending = blocked;
    }
    return counts;
  }
}

function isForeignKeyViolation(err: unknown): boolean {
  const text = err instanceof Prisma.PrismaClientKnownRequestError ? JSON.stringify(err.meta ?? {}) + err.message : String(err);
  return text.includes(FK_VIOLATION) || /foreign key/i.test(text);
}
