import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { CustomerRecord, customerFromRow } from './conversion.records';

export interface CustomerRow extends CustomerRecord {
  shortCode: string | null;
}

export interface CustomerSales {
  sales: number;
  revenue: Array<{ currency: string; net: number }>;
}

export interface CustomerEventRow {
  type: 'lead' | 'sale' | 'refund';
  id: string;
  eventName: string | null;
  amount: number | null;
  currency: string | null;
  invoiceId: string | null;
  source: string | null;
  createdAt: Date;
}

/** A page position: the last customer's creation time and id. */
export function encodeCursor(c: { createdAt: Date; id: string }): string {
  return Buffer.from(`${c.createdAt.toISOString()}|${c.id}`).toString('base64url');
}
export function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at);
  return isUuid(id) && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : null;
}

/** Customers as the dashboard and API list them; every method is scoped by the organization. */
@Injectable()
export class CustomersRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Newest first, `limit + 1` rows (the extra one tells that a next page exists). */
  async list(
    organizationId: string,
    q: { search?: string; linkId?: string; after?: { createdAt: Date; id: string } | null; limit: number },
  ): Promise<CustomerRow[]> {
    const params: unknown[] = [organizationId, q.limit + 1];
    const where: string[] = [];
    if (q.search) {
      params.push(`%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
      where.push(`(c.external_id ILIKE $${params.length} OR c.name ILIKE $${params.length} OR c.email ILIKE $${params.length})`);
    }
    if (q.linkId) {
      params.push(q.linkId);
      where.push(`c.link_id = $${params.length}::uuid`);
    }
    if (q.after) {
      params.push(q.after.createdAt, q.after.id);
      where.push(`(c.created_at, c.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
    }
    const { rows } = await this.prisma.pool.query(
      `SELECT c.*, l.short_code FROM customers c LEFT JOIN links l ON l.id = c.link_id AND l.organization_id = c.organization_id
        WHERE c.organization_id = $1::uuid ${where.map((w) => `AND ${w}`).join(' ')}
        ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
      params,
    );
    return rows.map((r) => ({ ...customerFromRow(r), shortCode: r.short_code ?? null }));
  }

  async find(organizationId: string, id: string): Promise<CustomerRow | null> {
    if (!isUuid(id)) return null;
    const { rows } = await this.prisma.pool.query(
      `SELECT c.*, l.short_code FROM customers c LEFT JOIN links l ON l.id = c.link_id AND l.organization_id = c.organization_id
        WHERE c.organization_id = $1::uuid AND c.id = $2::uuid`,
      [organizationId, id],
    );
    return rows[0] ? { ...customerFromRow(rows[0]), shortCode: rows[0].short_code ?? null } : null;
  }

  /** Sales count and net revenue per currency of each customer. */
  async sales(organizationId: string, customerIds: string[]): Promise<Map<string, CustomerSales>> {
    const out = new Map<string, CustomerSales>(customerIds.map((id) => [id, { sales: 0, revenue: [] }]));
    if (!customerIds.length) return out;
    const { rows } = await this.prisma.pool.query(
      `SELECT customer_id, currency, count(*)::int AS sales, sum(amount - refunded)::text AS net
         FROM sales WHERE organization_id = $1::uuid AND customer_id = ANY($2::uuid[])
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [organizationId, customerIds],
    );
    for (const r of rows) {
      const entry = out.get(r.customer_id)!;
      entry.sales += r.sales;
      entry.revenue.push({ currency: r.currency, net: Number(r.net) });
    }
    return out;
  }

  /** The customer's leads, sales and refunds in time order. */
  async events(organizationId: string, customerId: string): Promise<CustomerEventRow[]> {
    const { rows } = await this.prisma.pool.query(
      `SELECT 'lead' AS type, id, event_name, NULL::text AS amount, NULL AS currency, NULL AS invoice_id, NULL AS source, created_at
         FROM leads WHERE organization_id = $1::uuid AND customer_id = $2::uuid
       UNION ALL
       SELECT 'sale', id, event_name, amount::text, currency, invoice_id, source::text, created_at
         FROM sales WHERE organization_id = $1::uuid AND customer_id = $2::uuid
       UNION ALL
       SELECT 'refund', r.id, NULL, r.amount::text, s.currency, s.invoice_id, NULL, r.created_at
         FROM refunds r JOIN sales s ON s.id = r.sale_id
        WHERE r.organization_id = $1::uuid AND s.organization_id = $1::uuid AND s.customer_id = $2::uuid
       ORDER BY created_at, type`,
      [organizationId, customerId],
    );
    return rows.map((r) => ({
      type: r.type,
      id: r.id,
      eventName: r.event_name,
      amount: r.amount === null ? null : Number(r.amount),
      currency: r.currency,
      invoiceId: r.invoice_id,
      source: r.source,
      createdAt: r.created_at,
    }));
  }
}
