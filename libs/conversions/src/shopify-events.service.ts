import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { isUuid } from '@dl/platform/validation';
import { InvalidShopifySignatureError } from './conversions.errors';
import { IntegrationRecord } from './integrations.repository';
import { LeadsRepository } from './leads.repository';
import { toMinorUnits } from './money';
import { SalesRepository } from './sales.repository';
import { isCurrency } from './track.dto';
import { DEFAULT_SALE_EVENT, TrackService } from './track.service';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const idText = (v: unknown): string | null =>
  (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && /^[0-9]{1,30}$/.test(v)) ? String(v) : null;

/**
 * Shopify's JSON as sent: its ids pass 2^53 (e.g. 820982911946154508), which JSON numbers lose;
 * integers of 16 digits or more become strings first (the plain parse when that fails).
 */
export function parseShopifyJson(raw: string): unknown {
  try {
    return JSON.parse(raw.replace(/([:[,]\s*)(\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
  } catch {
    return JSON.parse(raw);
  }
}

/** Is `signature` the base64 HMAC-SHA256 of the exact body with `secret`? Compared in constant time. */
export function isShopifySignature(raw: Buffer, signature: string | undefined, secret: string): boolean {
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(typeof signature === 'string' ? signature : '', 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The lead a Shopify order makes (decisions §23). */
export const ORDER_LEAD_EVENT = 'Order';

/** The invoice id of a Shopify order's sale (refunds find it by the order id). */
export const shopifyInvoiceId = (orderId: string) => `shopify_order_${orderId}`;

/** `dl_click` of an order: its landing site's query, else a note attribute. */
export function orderClickId(order: Obj): string | null {
  const landing = typeof order.landing_site === 'string' ? order.landing_site : '';
  try {
    const fromLanding = new URL(landing, 'https://shop.invalid').searchParams.get('dl_click');
    if (isUuid(fromLanding)) return fromLanding;
  } catch {
    // not a URL: try the note attributes
  }
  const notes = Array.isArray(order.note_attributes) ? order.note_attributes : [];
  const note = notes.map(obj).find((n) => n.name === 'dl_click');
  return isUuid(note?.value) ? (note!.value as string) : null;
}

/**
 * Shopify's webhooks for one organization (decisions §23): `X-Shopify-Hmac-Sha256` checked in
 * constant time; `orders/paid` → the customer (by Shopify customer id) attributed to the
 * order's `dl_click`, its lead and the sale; `refunds/create` → a refund, once per refund id.
 */
@Injectable()
export class ShopifyEventsService {
  constructor(
    private readonly track: TrackService,
    private readonly leads: LeadsRepository,
    private readonly sales: SalesRepository,
  ) {}

  /** 401 `Invalid signature` unless the header is the base64 HMAC-SHA256 of the exact body. */
  verify(raw: Buffer, signature: string | undefined, integration: IntegrationRecord): void {
    if (!isShopifySignature(raw, signature, integration.webhookSecret)) throw new InvalidShopifySignatureError();
  }

  async apply(organizationId: string, topic: string | undefined, payload: unknown): Promise<boolean> {
    const body = obj(payload);
    if (topic === 'orders/paid') return this.orderPaid(organizationId, body);
    if (topic === 'refunds/create') return this.refundCreated(organizationId, body);
    return false;
  }

  private async orderPaid(organizationId: string, order: Obj): Promise<boolean> {
    const orderId = idText(order.id);
    const currency = order.currency;
    if (!orderId || !isCurrency(currency)) return false;
    const amount = toMinorUnits(order.total_price, currency.toUpperCase());
    if (amount === null) return false;
    const shopper = obj(order.customer);
    const externalId = idText(shopper.id) ?? `shopify_order_customer_${orderId}`;
    const clickId = orderClickId(order);
    const name = [shopper.first_name, shopper.last_name].filter((s) => typeof s === 'string' && s).join(' ') || null;
    const email = typeof shopper.email === 'string' ? shopper.email.slice(0, 320) : typeof order.email === 'string' ? order.email.slice(0, 320) : null;
    const lead = clickId
      ? await this.track.leadFromClick(organizationId, { externalId, name, email, clickId, eventName: ORDER_LEAD_EVENT, metadata: null, source: 'shopify' })
      : null;
    const customer = lead?.customer ?? (await this.leads.findCustomer(organizationId, externalId));
    if (!customer) return false;
    const paidAt = typeof order.processed_at === 'string' && !Number.isNaN(Date.parse(order.processed_at)) ? new Date(order.processed_at) : new Date();
    await this.track.storeIntegrationSale(organizationId, customer, { amount, currency, invoiceId: shopifyInvoiceId(orderId), processor: 'shopify', at: paidAt });
    return true;
  }

  private async refundCreated(organizationId: string, refund: Obj): Promise<boolean> {
    const orderId = idText(refund.order_id);
    const refundId = idText(refund.id);
    if (!orderId || !refundId) return false;
    const sale = await this.sales.findByInvoice(organizationId, shopifyInvoiceId(orderId));
    if (!sale) return false;
    const transactions = (Array.isArray(refund.transactions) ? refund.transactions : []).map(obj);
    let amount = 0;
    for (const t of transactions) {
      if (t.kind !== 'refund' || t.status !== 'success') continue;
      const minor = toMinorUnits(t.amount, sale.currency);
      if (minor === null) return false;
      amount += minor;
    }
    if (amount <= 0) return false;
    // Never more than is left of the sale (a refund of shipping Shopify counts apart, for instance).
    const outcome = await this.sales.refund(organizationId, sale.invoiceId!, Math.min(amount, sale.amount - sale.refunded) || null, `shopify_refund_${refundId}`);
    return outcome.kind === 'created';
  }
}
