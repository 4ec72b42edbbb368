import { Injectable } from '@nestjs/common';
import Stripe from 'stripe';
import { CustomerRecord } from './conversion.records';
import { InvalidStripeSignatureError } from './conversions.errors';
import { IntegrationRecord } from './integrations.repository';
import { LeadsRepository } from './leads.repository';
import { SalesRepository } from './sales.repository';
import { DEFAULT_SALE_EVENT, TrackService } from './track.service';
import { isAmount, isCurrency } from './track.dto';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const text = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null);
/** A Stripe reference: an id, or the expanded object's id. */
const idOf = (v: unknown): string | null => text(v) ?? text(obj(v).id);

/** The lead a Stripe Checkout makes (decisions §23). */
export const CHECKOUT_LEAD_EVENT = 'Checkout';

/**
 * Stripe's events for one organization (decisions §23): the signature is checked with the
 * official `stripe` package; `checkout.session.completed` → the lead (click from
 * `metadata.dl_click_id`) and the sale, `invoice.paid` → a sale by invoice id,
 * `charge.refunded` → a refund. Each step is idempotent (lead by customer and event name, sale
 * by invoice id, refund by the charge's refunded total), so an event applied twice counts once.
 */
@Injectable()
export class StripeEventsService {
  constructor(
    private readonly track: TrackService,
    private readonly leads: LeadsRepository,
    private readonly sales: SalesRepository,
  ) {}

  /** The verified event (400 `Invalid signature` for a missing or wrong `Stripe-Signature`). */
  verify(raw: Buffer, signature: string | undefined, integration: IntegrationRecord): Stripe.Event {
    if (!signature) throw new InvalidStripeSignatureError();
    try {
      return Stripe.webhooks.constructEvent(raw, signature, integration.webhookSecret);
    } catch {
      throw new InvalidStripeSignatureError();
    }
  }

  /** Applies the event; false when it is of a kind or shape this integration ignores. */
  async apply(organizationId: string, event: Stripe.Event): Promise<boolean> {
    const object = obj(event.data?.object);
    const at = new Date((typeof event.created === 'number' ? event.created : Date.now() / 1000) * 1000);
    switch (event.type) {
      case 'checkout.session.completed':
        return this.checkoutCompleted(organizationId, object, at);
      case 'invoice.paid':
        return this.invoicePaid(organizationId, object, at);
      case 'charge.refunded':
        return this.chargeRefunded(organizationId, object);
      default:
        return false;
    }
  }

  private async checkoutCompleted(organizationId: string, session: Obj, at: Date): Promise<boolean> {
    if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return false;
    const metadata = obj(session.metadata);
    const stripeCustomer = idOf(session.customer);
    const externalId = text(session.client_reference_id) ?? text(metadata.dl_customer_id) ?? stripeCustomer;
    if (!externalId) return false;
    const details = obj(session.customer_details);
    const clickId = text(metadata.dl_click_id);
    const lead = clickId
      ? await this.track.leadFromClick(organizationId, {
          externalId,
          name: text(details.name),
          email: text(details.email),
          clickId,
          eventName: CHECKOUT_LEAD_EVENT,
          metadata: null,
          source: 'stripe',
        })
      : null;
    const customer = lead?.customer ?? (await this.leads.findCustomer(organizationId, externalId));
    if (!customer) return false;
    if (stripeCustomer && customer.stripeCustomerId !== stripeCustomer) await this.leads.setStripeCustomer(organizationId, customer.id, stripeCustomer);
    // The invoice (subscriptions) or payment intent (one-time) names the sale, so `invoice.paid`
    // and `charge.refunded` find the same one.
    const invoiceId = idOf(session.invoice) ?? idOf(session.payment_intent) ?? idOf(session.id);
    await this.sale(organizationId, customer, session.amount_total, session.currency, invoiceId, at);
    return true;
  }

  private async invoicePaid(organizationId: string, invoice: Obj, at: Date): Promise<boolean> {
    const metadata = {
      ...obj(obj(invoice.subscription_details).metadata),
      ...obj(obj(obj(invoice.parent).subscription_details).metadata),
      ...obj(invoice.metadata),
    };
    const externalId = text(metadata.dl_customer_id);
    const stripeCustomer = idOf(invoice.customer);
    const customer = externalId
      ? await this.leads.findCustomer(organizationId, externalId)
      : stripeCustomer
        ? await this.leads.findByStripeCustomer(organizationId, stripeCustomer)
        : null;
    if (!customer || !(typeof invoice.amount_paid === 'number' && invoice.amount_paid > 0)) return false;
    await this.sale(organizationId, customer, invoice.amount_paid, invoice.currency, idOf(invoice.id), at);
    return true;
  }

  private async chargeRefunded(organizationId: string, charge: Obj): Promise<boolean> {
    const total = charge.amount_refunded;
    const chargeId = idOf(charge.id);
    if (!isAmount(total) || !chargeId) return false;
    const invoiceId = idOf(charge.invoice) ?? idOf(charge.payment_intent) ?? chargeId;
    // Stripe reports the charge's refunded total: the refund is the difference, once per total.
    const outcome = await this.sales.refund(organizationId, invoiceId, { total }, `${chargeId}:${total}`);
    return outcome.kind === 'created';
  }

  private async sale(organizationId: string, customer: CustomerRecord, amount: unknown, currency: unknown, invoiceId: string | null, at: Date): Promise<void> {
    if (!isAmount(amount) || !isCurrency(currency)) return;
    await this.track.storeIntegrationSale(organizationId, customer, { amount, currency, invoiceId, processor: 'stripe', at });
  }
}
