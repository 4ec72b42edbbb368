import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { inTransaction, PrismaService } from '@dl/platform/db';
import { NO_LINK, RefundRecord, refundFromRow, SaleRecord, saleFromRow } from './conversion.records';

/**
 * A sale to store. With `customerExternalId` the customer (of `organizationId`) gives the link;
 * without one (pixel, SDK) the sale carries its own attribution.
 */
export interface SaleInput extends Omit<SaleRecord, 'id' | 'customerId' | 'refunded'> {
  customerExternalId: string | null;
  countryCode: string | null;
  utmCampaign: string | null;
}

export type SaleOutcome =
  | { kind: 'created'; sale: SaleRecord }
  | { kind: 'existing'; sale: SaleRecord }
  | { kind: 'unknownCustomer' };

/**
 * How much to refund: an amount, `null` for what is left, or `{total}` for a sender that reports
 * the sale's refunded total (Stripe's `amount_refunded`): the difference to what is stored.
 */
export type RefundAmount = number | null | { total: number };

export type RefundOutcome =
  /** `{total}` already reached: nothing to do. */
  | { kind: 'nothing'; sale: SaleRecord }
  | { kind: 'created'; refund: RefundRecord; sale: SaleRecord }
  /** The sender's refund id was applied before: nothing changes. */
  | { kind: 'existing'; refund: RefundRecord; sale: SaleRecord }
  | { kind: 'unknownSale' }
  | { kind: 'tooMuch'; remaining: number };

/*
 * One statement per batch (rows inserted in input order: of two with one invoice id the first wins): the input as arrays, the customers joined in (by organization and
 * external id, so a batch of many organizations cannot cross them), the sales inserted once per
 * invoice id, and the daily rollup grown by what was inserted. Autocommit: when it answers, the
 * rows are durable.
 */
const INSERT_SALES = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::bigint[], $8::text[],
                       $9::text[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::timestamptz[]) WITH ORDINALITY
    AS t(id, organization_id, customer_external_id, link_id, country_code, utm_campaign, amount, currency,
         event_name, invoice_id, payment_processor, source, metadata, created_at, ord)
), matched AS (
  SELECT i.id, i.organization_id, c.id AS customer_id,
         CASE WHEN i.customer_external_id IS NULL THEN i.link_id ELSE c.link_id END AS link_id,
         COALESCE(CASE WHEN i.customer_external_id IS NULL THEN i.country_code ELSE c.country_code END, '') AS country_code,
         COALESCE(CASE WHEN i.customer_external_id IS NULL THEN i.utm_campaign ELSE c.utm_campaign END, '') AS utm_campaign,
         i.amount, i.currency, i.event_name, i.invoice_id, i.payment_processor, i.source, i.metadata, i.created_at, i.ord
    FROM input i
    LEFT JOIN customers c ON c.organization_id = i.organization_id AND c.external_id = i.customer_external_id
   WHERE i.customer_external_id IS NULL OR c.id IS NOT NULL
), ins AS (
  INSERT INTO sales (id, organization_id, customer_id, link_id, country_code, utm_campaign, amount, currency, event_name,
                     invoice_id, payment_processor, source, metadata, created_at)
  SELECT id, organization_id, customer_id, link_id, country_code, utm_campaign, amount, currency, event_name,
         invoice_id, payment_processor, source::"SaleSource", metadata, created_at
    FROM matched
   ORDER BY ord
  ON CONFLICT (organization_id, invoice_id) DO NOTHING
  RETURNING id
), paying AS (
  UPDATE customers c SET first_sale_at = m.created_at
    FROM (SELECT customer_id, min(created_at) AS created_at FROM matched JOIN ins USING (id)
           WHERE customer_id IS NOT NULL GROUP BY customer_id ORDER BY customer_id) m
   WHERE c.id = m.customer_id AND c.first_sale_at IS NULL
), rollup AS (
  INSERT INTO conversion_daily (organization_id, day, link_id, source, country_code, utm_campaign, currency, sales, amount)
  SELECT m.organization_id, (m.created_at AT TIME ZONE 'UTC')::date, COALESCE(m.link_id, '${NO_LINK}'::uuid), m.source,
         m.country_code, m.utm_campaign, m.currency, count(*), sum(m.amount)
    FROM matched m JOIN ins ON ins.id = m.id
   GROUP BY 1, 2, 3, 4, 5, 6, 7
   ORDER BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (organization_id, day, link_id, source, country_code, utm_campaign, currency)
  DO UPDATE SET sales = conversion_daily.sales + EXCLUDED.sales, amount = conversion_daily.amount + EXCLUDED.amount
), org_rollup AS (
  INSERT INTO conversion_org_daily (organization_id, day, source, currency, sales, amount)
  SELECT m.organization_id, (m.created_at AT TIME ZONE 'UTC')::date, m.source, m.currency, count(*), sum(m.amount)
    FROM matched m JOIN ins ON ins.id = m.id
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, day, source, currency)
  DO UPDATE SET sales = conversion_org_daily.sales + EXCLUDED.sales, amount = conversion_org_daily.amount + EXCLUDED.amount
)
SELECT m.id, m.organization_id, m.customer_id, m.link_id, m.amount, 0 AS refunded, m.currency, m.event_name, m.invoice_id,
       m.payment_processor, m.source, m.metadata, m.created_at, (ins.id IS NOT NULL) AS inserted
  FROM matched m LEFT JOIN ins ON ins.id = m.id`;

/** Sales and refunds; every method is scoped by the organization (a batch's rows each carry theirs). */
@Injectable()
export class SalesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Stores a batch of sales (of one or many organizations) in one statement: one outcome per input, in order. */
  async insertBatch(items: readonly SaleInput[]): Promise<SaleOutcome[]> {
    if (!items.length) return [];
    const ids = items.map(() => randomUUID());
    const col = <K extends keyof SaleInput>(k: K) => items.map((i) => i[k]);
    const { rows } = await this.prisma.pool.query(INSERT_SALES, [
      ids,
      col('organizationId'),
      col('customerExternalId'),
      col('linkId'),
      col('countryCode'),
      col('utmCampaign'),
      items.map((i) => String(i.amount)),
      items.map((i) => i.currency.toUpperCase()),
      col('eventName'),
      col('invoiceId'),
      col('paymentProcessor'),
      col('source'),
      items.map((i) => (i.metadata === null ? null : JSON.stringify(i.metadata))),
      col('createdAt'),
    ]);
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    const outcomes: Array<SaleOutcome | null> = ids.map((id) => {
      const r = byId.get(id);
      if (!r) return { kind: 'unknownCustomer' };
      return r.inserted ? { kind: 'created', sale: saleFromRow(r) } : null;
    });
    // Not inserted, customer known: the invoice id was there already (or earlier in this batch).
    const repeated = items.filter((_, n) => outcomes[n] === null);
    if (repeated.length) {
      const existing = await this.findByInvoices(repeated.map((i) => [i.organizationId, i.invoiceId as string]));
      items.forEach((item, n) => {
        if (outcomes[n] !== null) return;
        const sale = existing.get(`${item.organizationId}\n${item.invoiceId}`);
        outcomes[n] = sale ? { kind: 'existing', sale } : { kind: 'unknownCustomer' };
      });
    }
    return outcomes as SaleOutcome[];
  }

  private async findByInvoices(keys: Array<[string, string]>): Promise<Map<string, SaleRecord>> {
    const { rows } = await this.prisma.pool.query(
      `SELECT s.* FROM sales s JOIN unnest($1::uuid[], $2::text[]) AS k(organization_id, invoice_id)
          ON s.organization_id = k.organization_id AND s.invoice_id = k.invoice_id`,
      [keys.map((k) => k[0]), keys.map((k) => k[1])],
    );
    return new Map(rows.map((r) => [`${r.organization_id}\n${r.invoice_id}`, saleFromRow(r)]));
  }

  async findByInvoice(organizationId: string, invoiceId: string): Promise<SaleRecord | null> {
    return (await this.findByInvoices([[organizationId, invoiceId]])).get(`${organizationId}\n${invoiceId}`) ?? null;
  }

  /**
   * Refunds `amount` (default: what is left) of the organization's sale with `invoiceId`, once per
   * `externalId` when the sender names its refund. The sale's row is locked so concurrent refunds
   * cannot pass the amount paid; the rollup nets the sale's own day.
   */
  refund(organizationId: string, invoiceId: string, amount: RefundAmount, externalId: string | null): Promise<RefundOutcome> {
    return inTransaction(this.prisma.pool, (client) => this.refundIn(client, organizationId, invoiceId, amount, externalId));
  }

  private async refundIn(
    client: PoolClient,
    organizationId: string,
    invoiceId: string,
    amount: RefundAmount,
    externalId: string | null,
  ): Promise<RefundOutcome> {
    const { rows: sales } = await client.query('SELECT * FROM sales WHERE organization_id = $1::uuid AND invoice_id = $2 FOR UPDATE', [
      organizationId,
      invoiceId,
    ]);
    if (!sales[0]) return { kind: 'unknownSale' };
    const sale = saleFromRow(sales[0]);
    if (externalId !== null) {
      const { rows } = await client.query('SELECT * FROM refunds WHERE organization_id = $1::uuid AND external_id = $2', [organizationId, externalId]);
      if (rows[0]) return { kind: 'existing', refund: refundFromRow(rows[0]), sale };
    }
    const remaining = sale.amount - sale.refunded;
    const upTo = amount !== null && typeof amount === 'object' ? amount.total : null;
    const value = upTo !== null ? Math.min(upTo, sale.amount) - sale.refunded : (amount as number | null) ?? remaining;
    if (upTo !== null && value <= 0) return { kind: 'nothing', sale };
    if (value <= 0 || value > remaining) return { kind: 'tooMuch', remaining };
    const { rows: refunds } = await client.query(
      `INSERT INTO refunds (organization_id, sale_id, amount, external_id) VALUES ($1::uuid, $2::uuid, $3::bigint, $4) RETURNING *`,
      [organizationId, sale.id, String(value), externalId],
    );
    await client.query('UPDATE sales SET refunded = refunded + $3::bigint WHERE organization_id = $1::uuid AND id = $2::uuid', [
      organizationId,
      sale.id,
      String(value),
    ]);
    await client.query(
      `UPDATE conversion_daily SET refunded = refunded + $8::bigint
        WHERE organization_id = $1::uuid AND day = ($2::timestamptz AT TIME ZONE 'UTC')::date AND link_id = $3::uuid
          AND source = $4 AND country_code = $5 AND utm_campaign = $6 AND currency = $7`,
      [organizationId, sale.createdAt, sale.linkId ?? NO_LINK, sale.source, sales[0].country_code, sales[0].utm_campaign, sale.currency, String(value)],
    );
    await client.query(
      `UPDATE conversion_org_daily SET refunded = refunded + $5::bigint
        WHERE organization_id = $1::uuid AND day = ($2::timestamptz AT TIME ZONE 'UTC')::date AND source = $3 AND currency = $4`,
      [organizationId, sale.createdAt, sale.source, sale.currency, String(value)],
    );
    return { kind: 'created', refund: refundFromRow(refunds[0]), sale: { ...sale, refunded: sale.refunded + value } };
  }
}
