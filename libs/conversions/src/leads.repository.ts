import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { inTransaction, PrismaService } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { ClickAttribution, CustomerRecord, customerFromRow, LeadRecord, leadFromRow, NO_LINK, SaleSource } from './conversion.records';

/** What a lead writes: its customer (created on first sight, first touch kept) and the lead itself. */
export interface LeadInput {
  externalId: string;
  name: string | null;
  email: string | null;
  /** The attribution: a click within its link's window (link set), outside it (link null) or none. */
  clickId: string | null;
  linkId: string | null;
  clickedAt: Date | null;
  countryCode: string | null;
  utmCampaign: string | null;
  eventName: string;
  metadata: Record<string, unknown> | null;
  source: SaleSource;
}

export interface LeadOutcome {
  customer: CustomerRecord;
  lead: LeadRecord;
  /** False when the customer already had a lead of this event name (the existing one is answered). */
  created: boolean;
}

/** A click id made at the edge is a UUIDv7 of the click time: its partition can be found from it. */
function clickTime(clickId: string): number | null {
  if (clickId[14] !== '7') return null;
  const ms = parseInt(clickId.slice(0, 8) + clickId.slice(9, 13), 16);
  return Number.isFinite(ms) ? ms : null;
}
const DAY_MS = 86_400_000;

const UPSERT_CUSTOMER = `
  INSERT INTO customers (organization_id, external_id, name, email, link_id, click_id, clicked_at, country_code, utm_campaign)
  VALUES ($1::uuid, $2, $3, $4, $5::uuid, $6::uuid, $7::timestamptz, $8, $9)
  ON CONFLICT (organization_id, external_id) DO UPDATE
    SET name = COALESCE(EXCLUDED.name, customers.name), email = COALESCE(EXCLUDED.email, customers.email)
  RETURNING *`;

/** Customers and their leads; every method is scoped by the organization. */
@Injectable()
export class LeadsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The organization's click (and its link's attribution window), or null when unknown or foreign. */
  async findClick(organizationId: string, clickId: string): Promise<ClickAttribution | null> {
    if (!isUuid(clickId)) return null;
    const at = clickTime(clickId);
    const bounds = at === null ? [null, null] : [new Date(at - DAY_MS), new Date(at + DAY_MS)];
    const { rows } = await this.prisma.pool.query(
      `SELECT c.id, c.link_id, c.clicked_at, c.country_code, COALESCE(c.utm_campaign, l.utm_parameters->>'campaign') AS utm_campaign,
              l.attribution_window_hours
         FROM clicks c JOIN links l ON l.id = c.link_id AND l.organization_id = c.organization_id
        WHERE c.organization_id = $1::uuid AND c.id = $2::uuid
          AND ($3::timestamptz IS NULL OR c.clicked_at BETWEEN $3::timestamptz AND $4::timestamptz)
        LIMIT 1`,
      [organizationId, clickId, ...bounds],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      clickId: r.id,
      linkId: r.link_id,
      clickedAt: r.clicked_at,
      attributionWindowHours: r.attribution_window_hours,
      countryCode: r.country_code,
      utmCampaign: r.utm_campaign,
    };
  }

  async findCustomer(organizationId: string, externalId: string): Promise<CustomerRecord | null> {
    const { rows } = await this.prisma.pool.query('SELECT * FROM customers WHERE organization_id = $1::uuid AND external_id = $2', [
      organizationId,
      externalId,
    ]);
    return rows[0] ? customerFromRow(rows[0]) : null;
  }

  async findByStripeCustomer(organizationId: string, stripeCustomerId: string): Promise<CustomerRecord | null> {
    const { rows } = await this.prisma.pool.query(
      'SELECT * FROM customers WHERE organization_id = $1::uuid AND stripe_customer_id = $2 ORDER BY created_at LIMIT 1',
      [organizationId, stripeCustomerId],
    );
    return rows[0] ? customerFromRow(rows[0]) : null;
  }

  /** Remembers the Stripe customer seen at checkout: its later invoices are this customer's sales. */
  async setStripeCustomer(organizationId: string, customerId: string, stripeCustomerId: string): Promise<void> {
    await this.prisma.pool.query('UPDATE customers SET stripe_customer_id = $3 WHERE organization_id = $1::uuid AND id = $2::uuid', [
      organizationId,
      customerId,
      stripeCustomerId,
    ]);
  }

  /**
   * The customer (created on first sight; an existing one keeps its first attribution, takes a
   * newer name or email) and its lead of `eventName` (the existing one when already tracked),
   * with the daily rollup, in one transaction.
   */
  trackLead(organizationId: string, input: LeadInput): Promise<LeadOutcome> {
    return inTransaction(this.prisma.pool, (client) => this.trackLeadIn(client, organizationId, input));
  }

  async trackLeadIn(client: PoolClient, organizationId: string, input: LeadInput): Promise<LeadOutcome> {
    const { rows: customers } = await client.query(UPSERT_CUSTOMER, [
      organizationId,
      input.externalId,
      input.name,
      input.email,
      input.linkId,
      input.clickId,
      input.clickedAt,
      input.countryCode,
      input.utmCampaign,
    ]);
    const customer = customerFromRow(customers[0]);
    const { rows: inserted } = await client.query(
      `INSERT INTO leads (organization_id, customer_id, link_id, event_name, metadata)
       VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5::jsonb)
       ON CONFLICT (customer_id, event_name) DO NOTHING RETURNING *`,
      [organizationId, customer.id, customer.linkId, input.eventName, input.metadata === null ? null : JSON.stringify(input.metadata)],
    );
    if (!inserted[0]) {
      const { rows } = await client.query('SELECT * FROM leads WHERE organization_id = $1::uuid AND customer_id = $2::uuid AND event_name = $3', [
        organizationId,
        customer.id,
        input.eventName,
      ]);
      return { customer, lead: leadFromRow(rows[0]), created: false };
    }
    const lead = leadFromRow(inserted[0]);
    if (!customer.firstLeadAt) {
      await client.query('UPDATE customers SET first_lead_at = $3 WHERE organization_id = $1::uuid AND id = $2::uuid', [
        organizationId,
        customer.id,
        lead.createdAt,
      ]);
      customer.firstLeadAt = lead.createdAt;
    }
    await client.query(
      `INSERT INTO conversion_daily (organization_id, day, link_id, source, country_code, utm_campaign, currency, leads)
       VALUES ($1::uuid, ($2::timestamptz AT TIME ZONE 'UTC')::date, $3::uuid, $4, $5, $6, '', 1)
       ON CONFLICT (organization_id, day, link_id, source, country_code, utm_campaign, currency)
       DO UPDATE SET leads = conversion_daily.leads + 1`,
      [organizationId, lead.createdAt, customer.linkId ?? NO_LINK, input.source, customer.countryCode ?? '', customer.utmCampaign ?? ''],
    );
    await client.query(
      `INSERT INTO conversion_org_daily (organization_id, day, source, currency, leads)
       VALUES ($1::uuid, ($2::timestamptz AT TIME ZONE 'UTC')::date, $3, '', 1)
       ON CONFLICT (organization_id, day, source, currency) DO UPDATE SET leads = conversion_org_daily.leads + 1`,
      [organizationId, lead.createdAt, input.source],
    );
    return { customer, lead, created: true };
  }
}
