import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';

/** One exported table: what is read, in which order, and which columns never leave. */
export interface ExportTable {
  table: string;
  /** Keyset order: unique together, indexed with organization_id in front where the table is large. */
  orderBy: string[];
  /** Secrets and hashes that stay out of the export. */
  omit?: string[];
}

export type ExportRow = Record<string, unknown>;

/**
 * A read-only REPEATABLE READ transaction of the organization's rows: every file of one export
 * sees the database as it was at its first read, so links created (or clicks recorded) while it
 * streams are in none of its files or, if committed before, in all of them. Pages are read by
 * keyset, so memory stays one page however large the organization.
 */
export class ExportSnapshot {
  constructor(
    private readonly client: PoolClient,
    private readonly organizationId: string,
    private readonly pageSize: number,
  ) {}

  async *rows(spec: ExportTable): AsyncGenerator<ExportRow[]> {
    const order = spec.orderBy.map((c) => `"${c}"`).join(', ');
    let last: unknown[] | null = null;
    for (;;) {
      const params: unknown[] = [this.organizationId];
      let after = '';
      if (last) {
        const placeholders = last.map((v, i) => `$${i + 2}`).join(', ');
        after = ` AND (${order}) > (${placeholders})`;
        params.push(...last);
      }
      const { rows } = await this.client.query<ExportRow>(
        `SELECT * FROM "${spec.table}" WHERE organization_id = $1${after} ORDER BY ${order} LIMIT ${this.pageSize}`,
        params,
      );
      if (!rows.length) return;
      last = spec.orderBy.map((c) => rows[rows.length - 1][c]);
      for (const row of rows) for (const c of spec.omit ?? []) delete row[c];
      yield rows;
      if (rows.length < this.pageSize) return;
    }
  }

  /** The table's columns in the export (the header of an empty file too). */
  async columns(spec: ExportTable): Promise<string[]> {
    const { fields } = await this.client.query(`SELECT * FROM "${spec.table}" LIMIT 0`);
    return fields.map((f) => f.name).filter((n) => !(spec.omit ?? []).includes(n));
  }

  /** Members with their account's name and email (users are not rows of one organization). */
  async members(): Promise<ExportRow[]> {
    const { rows } = await this.client.query<ExportRow>(
      `SELECT m.user_id, u.email, u.name, m.role::text AS role, m.created_at AS joined_at
         FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = $1 ORDER BY m.created_at, m.user_id`,
      [this.organizationId],
    );
    return rows;
  }

  async close(): Promise<void> {
    try {
      await this.client.query('ROLLBACK');
    } finally {
      this.client.release();
    }
  }
}

@Injectable()
export class OrganizationExportRepository implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Its own small pool: an export holds one connection for as long as it streams.
    this.pool = createPgPool(config.DATABASE_URL, { max: 2, connectionTimeoutMillis: 5_000 });
  }

  async open(organizationId: string, pageSize = 5000): Promise<ExportSnapshot> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (err) {
      client.release();
      throw err;
    }
    return new ExportSnapshot(client, organizationId, pageSize);
  }

  async onModuleDestroy(): Promise<void> {
    await endPgPool(this.pool);
  }
}
