/** Rows of the conversions tables as the repositories hand them out (amounts as numbers of minor units). */

export type SaleSource = 'api' | 'stripe' | 'shopify' | 'pixel' | 'sdk';
export const SALE_SOURCES: readonly SaleSource[] = ['api', 'stripe', 'shopify', 'pixel', 'sdk'];

/** The rollup's key for conversions without a link (a key column cannot be null). */
export const NO_LINK = '00000000-0000-0000-0000-000000000000';

export interface CustomerRecord {
  id: string;
  organizationId: string;
  externalId: string;
  name: string | null;
  email: string | null;
  linkId: string | null;
  clickId: string | null;
  clickedAt: Date | null;
  countryCode: string | null;
  utmCampaign: string | null;
  firstLeadAt: Date | null;
  firstSaleAt: Date | null;
  stripeCustomerId: string | null;
  createdAt: Date;
}

export interface LeadRecord {
  id: string;
  customerId: string;
  linkId: string | null;
  eventName: string;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
}

export interface SaleRecord {
  id: string;
  organizationId: string;
  customerId: string | null;
  linkId: string | null;
  amount: number;
  refunded: number;
  currency: string;
  eventName: string;
  invoiceId: string | null;
  paymentProcessor: string | null;
  source: SaleSource;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
}

export interface RefundRecord {
  id: string;
  saleId: string;
  amount: number;
  externalId: string | null;
  createdAt: Date;
}

/** The click a lead names, with what attribution needs from it and its link. */
export interface ClickAttribution {
  clickId: string;
  linkId: string;
  clickedAt: Date;
  attributionWindowHours: number;
  countryCode: string | null;
  utmCampaign: string | null;
}

type Row = Record<string, unknown>;
const date = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

export function customerFromRow(r: Row): CustomerRecord {
  return {
    id: r.id as string,
    organizationId: r.organization_id as string,
    externalId: r.external_id as string,
    name: (r.name as string | null) ?? null,
    email: (r.email as string | null) ?? null,
    linkId: (r.link_id as string | null) ?? null,
    clickId: (r.click_id as string | null) ?? null,
    clickedAt: date(r.clicked_at),
    countryCode: (r.country_code as string | null) ?? null,
    utmCampaign: (r.utm_campaign as string | null) ?? null,
    firstLeadAt: date(r.first_lead_at),
    firstSaleAt: date(r.first_sale_at),
    stripeCustomerId: (r.stripe_customer_id as string | null) ?? null,
    createdAt: date(r.created_at) as Date,
  };
}

export function leadFromRow(r: Row): LeadRecord {
  return {
    id: r.id as string,
    customerId: r.customer_id as string,
    linkId: (r.link_id as string | null) ?? null,
    eventName: r.event_name as string,
    metadata: (r.metadata as Record<string, unknown> | null) ?? null,
    createdAt: date(r.created_at) as Date,
  };
}

export function saleFromRow(r: Row): SaleRecord {
  return {
    id: r.id as string,
    organizationId: r.organization_id as string,
    customerId: (r.customer_id as string | null) ?? null,
    linkId: (r.link_id as string | null) ?? null,
    amount: Number(r.amount),
    refunded: Number(r.refunded ?? 0),
    currency: r.currency as string,
    eventName: r.event_name as string,
    invoiceId: (r.invoice_id as string | null) ?? null,
    paymentProcessor: (r.payment_processor as string | null) ?? null,
    source: r.source as SaleSource,
    metadata: (r.metadata as Record<string, unknown> | null) ?? null,
    createdAt: date(r.created_at) as Date,
  };
}

export function refundFromRow(r: Row): RefundRecord {
  return {
    id: r.id as string,
    saleId: r.sale_id as string,
    amount: Number(r.amount),
    externalId: (r.external_id as string | null) ?? null,
    createdAt: date(r.created_at) as Date,
  };
}
