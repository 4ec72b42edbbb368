import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dl/platform/db';
import type { Pool } from 'pg';
import { NO_LINK } from './conversion.records';
import { ConversionGroup } from './conversions-query.dto';

/** The window (UTC days, inclusive) and the filters of a conversions read. */
export interface ConversionFilter {
  from: string;
  to: string;
  linkId?: string;
  projectId?: string;
  tag?: string;
  utmCampaign?: string;
}

export interface ConversionAggregate {
  key: string;
  currency: string;
  leads: number;
  sales: number;
  amount: number;
  refunded: number;
}

/** Builds `AND …` conditions on the rollup (`d`) and the link (`l`) with numbered parameters. */
function conditions(f: ConversionFilter, params: unknown[], alias: { link: string; campaign: string | null }): string {
  const out: string[] = [];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    out.push(sql.replace('?', `$${params.length}`));
  };
  if (f.linkId) add(`${alias.link} = ?::uuid`, f.linkId);
  if (f.projectId) add('l.project_id = ?::uuid', f.projectId);
  if (f.tag) add('? = ANY(l.tags)', f.tag);
  if (f.utmCampaign) add(`${alias.campaign ?? "(l.utm_parameters->>'campaign')"} = ?`, f.utmCampaign);
  return out.map((c) => ` AND ${c}`).join('');
}

const needsLink = (f: ConversionFilter) => Boolean(f.projectId || f.tag);

const GROUP_KEY: Record<ConversionGroup, string> = {
  day: "to_char(d.day, 'YYYY-MM-DD')",
  link: 'd.link_id::text',
  campaign: 'd.utm_campaign',
  country: 'd.country_code',
  source: 'd.source',
};

/** Click rollups for a group: the dimension read and the key of each row. */
const CLICK_GROUP: Record<Exclude<ConversionGroup, 'source'>, { dimension: string; key: string; link: boolean }> = {
  day: { dimension: 'total', key: "to_char(r.day, 'YYYY-MM-DD')", link: false },
  link: { dimension: 'total', key: 'r.link_id::text', link: false },
  campaign: { dimension: 'total', key: "COALESCE(l.utm_parameters->>'campaign', '')", link: true },
  country: { dimension: 'country', key: 'r.value', link: false },
};

/** Reads of conversions: the daily rollup, clicks' rollups, customers. Every method is scoped by the organization. */
@Injectable()
export class ConversionsReadRepository {
  private readonly pool: Pool;

  constructor(prisma: PrismaService) {
    this.pool = prisma.pool;
  }

  /** Conversions by group key and currency (leads are under currency ''). */
  async aggregate(organizationId: string, f: ConversionFilter, group: ConversionGroup | null): Promise<ConversionAggregate[]> {
    const params: unknown[] = [organizationId, f.from, f.to];
    const key = group ? GROUP_KEY[group] : "''";
    // Without filters, by day or source: the organization's own rollup (a few rows a day).
    const orgWide = !f.linkId && !f.projectId && !f.tag && !f.utmCampaign && (group === null || group === 'day' || group === 'source');
    const table = orgWide ? 'conversion_org_daily' : 'conversion_daily';
    const join = needsLink(f) ? 'JOIN links l ON l.id = d.link_id' : '';
    const { rows } = await this.pool.query(
      `SELECT ${key} AS key, d.currency, sum(d.leads)::int AS leads, sum(d.sales)::int AS sales,
              sum(d.amount)::text AS amount, sum(d.refunded)::text AS refunded
         FROM ${table} d ${join}
        WHERE d.organization_id = $1::uuid AND d.day BETWEEN $2::date AND $3::date
          ${conditions(f, params, { link: 'd.link_id', campaign: 'd.utm_campaign' })}
        GROUP BY 1, 2`,
      params,
    );
    return rows.map((r) => ({ key: r.key, currency: r.currency, leads: r.leads, sales: r.sales, amount: Number(r.amount), refunded: Number(r.refunded) }));
  }

  /** Non-bot clicks by group key (total under ''), from the click rollups. */
  async clicks(organizationId: string, f: ConversionFilter, group: Exclude<ConversionGroup, 'source'> | null): Promise<Map<string, number>> {
    const spec = group ? CLICK_GROUP[group] : { dimension: 'total', key: "''", link: false };
    const params: unknown[] = [organizationId, f.from, f.to, spec.dimension];
    const join = spec.link || needsLink(f) || f.utmCampaign ? 'JOIN links l ON l.id = r.link_id' : '';
    const { rows } = await this.pool.query(
      `SELECT ${spec.key} AS key, sum(r.clicks)::bigint::text AS clicks
         FROM click_rollups r ${join}
        WHERE r.organization_id = $1::uuid AND r.dimension = $4 AND r.day BETWEEN $2::date AND $3::date
          ${conditions(f, params, { link: 'r.link_id', campaign: null })}
        GROUP BY 1`,
      params,
    );
    return new Map(rows.map((r) => [r.key as string, Number(r.clicks)]));
  }

  /** Customers first seen in the window, and how many of them bought. */
  async customers(organizationId: string, f: ConversionFilter): Promise<{ customers: number; paying: number }> {
    const params: unknown[] = [organizationId, f.from, f.to];
    const join = needsLink(f) ? 'JOIN links l ON l.id = c.link_id' : '';
    const { rows } = await this.pool.query(
      `SELECT count(*)::int AS customers, count(c.first_sale_at)::int AS paying
         FROM customers c ${join}
        WHERE c.organization_id = $1::uuid
          AND c.created_at >= $2::date AND c.created_at < $3::date + 1
          ${conditions(f, params, { link: 'c.link_id', campaign: 'c.utm_campaign' })}`,
      params,
    );
    return rows[0];
  }

  /** Short code and title of the organization's links (labels of `link` rows). */
  async linkLabels(organizationId: string, ids: string[]): Promise<Map<string, { shortCode: string; title: string | null }>> {
    const known = ids.filter((id) => id !== NO_LINK);
    if (!known.length) return new Map();
    const { rows } = await this.pool.query('SELECT id, short_code, title FROM links WHERE organization_id = $1::uuid AND id = ANY($2::uuid[])', [
      organizationId,
      known,
    ]);
    return new Map(rows.map((r) => [r.id, { shortCode: r.short_code, title: r.title }]));
  }

  /** A page of the export (see exportPage). */
  exportPage(organizationId: string, f: ConversionFilter, after: { createdAt: Date; id: string } | null, limit: number): Promise<ConversionExportRow[]> {
    return exportPage(this.pool, organizationId, f, after, limit);
  }

  /** Leads, sales and net revenue of one link over its days. */
  async linkTotals(organizationId: string, linkId: string, from: string, to: string): Promise<ConversionAggregate[]> {
    return this.aggregate(organizationId, { from, to, linkId }, null);
  }
}

/** One line of the conversions export. */
export interface ConversionExportRow {
  type: 'lead' | 'sale';
  id: string;
  createdAt: Date;
  customerExternalId: string | null;
  linkId: string | null;
  shortCode: string | null;
  eventName: string;
  amount: number | null;
  refunded: number | null;
  currency: string | null;
  invoiceId: string | null;
  source: string;
}

/** Leads and sales of the window, oldest first, a page after `after` (keyset on time and id). */
export async function exportPage(
  pool: Pool,
  organizationId: string,
  f: ConversionFilter,
  after: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<ConversionExportRow[]> {
  const params: unknown[] = [organizationId, f.from, f.to, limit, after?.createdAt ?? null, after?.id ?? null];
  const filter = (link: string, campaign: string) => conditions(f, params, { link, campaign });
  const leadFilter = filter('e.link_id', 'c.utm_campaign');
  const saleFilter = filter('e.link_id', 'e.utm_campaign');
  const window = `e.organization_id = $1::uuid AND e.created_at >= $2::date AND e.created_at < $3::date + 1
    AND ($5::timestamptz IS NULL OR (e.created_at, e.id) > ($5::timestamptz, $6::uuid))`;
  const { rows } = await pool.query(
    `SELECT * FROM (
       SELECT 'lead' AS type, e.id, e.created_at, c.external_id, e.link_id, l.short_code, e.event_name,
              NULL::text AS amount, NULL::text AS refunded, NULL AS currency, NULL AS invoice_id, '' AS source
         FROM leads e JOIN customers c ON c.id = e.customer_id LEFT JOIN links l ON l.id = e.link_id
        WHERE ${window} ${leadFilter}
       UNION ALL
       SELECT 'sale', e.id, e.created_at, c.external_id, e.link_id, l.short_code, e.event_name,
              e.amount::text, e.refunded::text, e.currency, e.invoice_id, e.source::text
         FROM sales e LEFT JOIN customers c ON c.id = e.customer_id LEFT JOIN links l ON l.id = e.link_id
        WHERE ${window} ${saleFilter}
     ) x ORDER BY created_at, id LIMIT $4`,
    params,
  );
  return rows.map((r) => ({
    type: r.type,
    id: r.id,
    createdAt: r.created_at,
    customerExternalId: r.external_id ?? null,
    linkId: r.link_id ?? null,
    shortCode: r.short_code ?? null,
    eventName: r.event_name,
    amount: r.amount === null ? null : Number(r.amount),
    refunded: r.refunded === null ? null : Number(r.refunded),
    currency: r.currency,
    invoiceId: r.invoice_id,
    source: r.source,
  }));
}
