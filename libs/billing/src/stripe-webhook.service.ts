import { Inject, Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { AuditSink } from '@dl/audit';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from '@dl/auth';
import { BillingSettings } from '@dl/platform/config';
import { PrismaTx, Tier } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { BillingClock } from './billing-clock';
import { BillingMailer } from './billing-mailer';
import { BillingAccountChange, BillingAccountRow, BillingRepository } from './billing.repository';
import {
  effectiveTier, invoiceSubscription, isDowngrade, isLiveSubscription, keepNewest, planOfPrice, statusOf, StripeSubscriptionLike, StripeSubscriptionNow, subscriptionFields,
} from './billing-state';
import { BillingUnavailableError, InvalidStripeSignatureError } from './billing.errors';
import { BILLING_SETTINGS, callStripe, isStripeMissing, requireBilling, STRIPE_CLIENT } from './stripe-client';

/** Stripe-Signature timestamps older than this are refused (decisions §21: 5 minutes). */
const TOLERANCE_SECONDS = 300;

type Outcome = 'applied' | 'duplicate' | 'stale' | 'unknown-customer' | 'ignored';

interface Applied {
  outcome: Outcome;
  organizationId?: string;
  tier?: { from: Tier; to: Tier };
  paymentFailed?: boolean;
  /** The billing account's fields this event changed. */
  changes?: Record<string, unknown>;
  /** The older of two live subscriptions, to cancel at Stripe after the commit. */
  cancel?: string;
}

/** Both subscriptions as Stripe shows them, read before the transaction (two live subscriptions). */
interface Rivals {
  current: StripeSubscriptionNow;
  incoming: StripeSubscriptionNow;
}

/**
 * POST /billing/stripe/webhook: verifies the signature on the raw body with the `stripe`
 * package, then applies the event once (its id is claimed in the same transaction as the
 * change) and in `created` order per subscription (an event older than the last applied one
 * changes nothing). Postgres down → the transaction fails, the answer is 5xx, Stripe retries.
 * A tier change is announced to every api process (credential cache) after the commit. Stripe
 * is never called inside the transaction: what the event needs from Stripe is read before it,
 * and the older of two live subscriptions is canceled after the commit.
 */
@Injectable()
export class StripeWebhookService {
  private readonly logger = new Logger(StripeWebhookService.name);

  constructor(
    private readonly repo: BillingRepository,
    private readonly clock: BillingClock,
    private readonly mailer: BillingMailer,
    @Inject(BILLING_SETTINGS) private readonly settings: BillingSettings | null,
    @Inject(STRIPE_CLIENT) private readonly stripe: Stripe | null,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly audit: AuditSink,
  ) {}

  async receive(rawBody: Buffer | undefined, signature: string | undefined): Promise<{ received: true; outcome: Outcome }> {
    const settings = requireBilling(this.settings);
    let event: Stripe.Event;
    try {
      if (!rawBody || !signature) throw new Error('missing');
      event = this.stripe!.webhooks.constructEvent(rawBody, signature, settings.webhookSecret, TOLERANCE_SECONDS);
    } catch {
      throw new InvalidStripeSignatureError();
    }
    const rivals = await this.readRivals(event);
    const result = await this.repo.transaction((tx) => this.apply(tx, event, settings, rivals));
    await this.afterCommit(result);
    if (result.cancel) await this.cancelOlder(event.id, result.cancel, result.organizationId);
    this.logger.log({ event: event.id, type: event.type, outcome: result.outcome, organizationId: result.organizationId }, 'stripe event');
    return { received: true, outcome: result.outcome };
  }

  /** Announces a tier change to every api process and emails the Owners; a failed email is logged, not retried. */
  async afterCommit(result: Applied): Promise<void> {
    if (!result.organizationId) return;
    const { organizationId, tier, changes } = result;
    if (tier && tier.from !== tier.to) this.audit.record({ organizationId, action: 'billing.plan_changed', targetId: organizationId, changes: { ...changes, tier } });
    else if (changes && Object.keys(changes).length) this.audit.record({ organizationId, action: 'billing.subscription_changed', targetId: organizationId, changes });
    if (result.tier && result.tier.from !== result.tier.to) await this.invalidation.organizationChanged(result.organizationId);
    try {
      if (result.paymentFailed) await this.mailer.paymentFailed(result.organizationId);
      if (result.tier && isDowngrade(result.tier.from, result.tier.to)) await this.mailer.downgraded(result.organizationId, result.tier.from, result.tier.to);
    } catch (err) {
      this.logger.warn({ err: String(err), organizationId: result.organizationId }, 'billing email not sent');
    }
  }

  private async apply(tx: PrismaTx, event: Stripe.Event, settings: BillingSettings, rivals: Rivals | null): Promise<Applied> {
    const created = new Date(event.created * 1000);
    if (!(await this.repo.claimEvent(tx, { id: event.id, type: event.type, created }, 'applied'))) {
      // A redelivery applies nothing again; it retries only a cancellation Stripe failed.
      return { outcome: 'duplicate', cancel: (await this.repo.pendingCancel(tx, event.id)) ?? undefined };
    }
    let result: Applied;
    switch (event.type) {
      case 'checkout.session.completed':
        result = await this.checkoutCompleted(tx, event.data.object);
        break;
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        result = await this.subscriptionChanged(tx, event.data.object as StripeSubscriptionLike, event.type.endsWith('deleted'), created, settings, rivals);
        break;
      case 'invoice.payment_failed':
      case 'invoice.paid':
        result = await this.invoiceEvent(tx, event.data.object, event.type === 'invoice.paid', created);
        break;
      default:
        result = { outcome: 'ignored' };
    }
    if (result.outcome !== 'applied' || result.cancel) await this.repo.finishEvent(tx, event.id, { outcome: result.outcome, cancelSubscriptionId: result.cancel ?? null });
    return result;
  }

  /** Links the customer and the subscription to the organization named by `client_reference_id`. */
  private async checkoutCompleted(tx: PrismaTx, session: Stripe.Checkout.Session): Promise<Applied> {
    const organizationId = session.client_reference_id;
    const customerId = typeof session.customer === 'string' ? session.customer : session.customer?.id;
    const subscriptionId = typeof session.subscription === 'string' ? session.subscription : (session.subscription?.id ?? null);
    if (session.mode !== 'subscription' || !organizationId || !isUuid(organizationId) || !customerId) return { outcome: 'ignored' };
    const account = await this.accountFor(tx, organizationId, customerId);
    if (!account) return { outcome: 'unknown-customer' };
    if (account.stripeCustomerId !== customerId) return { outcome: 'ignored', organizationId };
    if (!account.stripeSubscriptionId && subscriptionId) await this.repo.update(tx, organizationId, { stripeSubscriptionId: subscriptionId });
    return { outcome: 'applied', organizationId };
  }

  private async subscriptionChanged(tx: PrismaTx, sub: StripeSubscriptionLike, deleted: boolean, created: Date, settings: BillingSettings, rivals: Rivals | null): Promise<Applied> {
    const fields = subscriptionFields(sub);
    const metadataOrg = (sub as { metadata?: Record<string, string> }).metadata?.organizationId;
    const organizationId = (await this.repo.organizationOfCustomer(fields.customerId, tx)) ?? (metadataOrg && isUuid(metadataOrg) ? metadataOrg : null);
    if (!organizationId) return { outcome: 'unknown-customer' };
    const account = await this.accountFor(tx, organizationId, fields.customerId);
    if (!account || account.stripeCustomerId !== fields.customerId) return { outcome: 'unknown-customer' };
    const status = deleted ? 'canceled' : statusOf(sub.status);
    const same = !account.stripeSubscriptionId || account.stripeSubscriptionId === sub.id;
    // Before the first subscription event nothing is stale (an invoice event may have come first).
    if (same && account.paidTier && account.lastEventAt && created < account.lastEventAt) return { outcome: 'stale', organizationId };
    const live = isLiveSubscription(status);
    // Two live subscriptions (two Checkouts paid): the newer is kept and the older canceled at Stripe after the commit, whatever order their events come in.
    const kept = !same && live && isLiveSubscription(account.status) ? this.decideRivals(rivals, account.stripeSubscriptionId!, sub.id) : null;
    const cancel = kept?.cancel ?? undefined;
    if (kept?.keep === 'current') return { outcome: 'ignored', organizationId, cancel };
    // Another subscription of the customer: a live new one replaces the current, anything else about it is ignored.
    if (!same && !kept && (!live || (account.lastEventAt && created < account.lastEventAt))) return { outcome: 'ignored', organizationId };
    const plan = fields.priceId ? planOfPrice(settings.prices, fields.priceId) : null;
    if (fields.priceId && !plan) this.logger.warn({ price: fields.priceId, organizationId }, 'subscription price not in STRIPE_PRICES: tier kept');
    const change: BillingAccountChange = {
      stripeSubscriptionId: sub.id,
      status,
      paidTier: plan?.tier ?? account.paidTier,
      interval: plan?.interval ?? account.interval,
      currentPeriodEnd: fields.currentPeriodEnd,
      cancelAtPeriodEnd: deleted ? false : fields.cancelAtPeriodEnd,
      pastDueSince: status === 'past_due' ? (account.pastDueSince ?? created) : null,
      graceEndedAt: status === 'past_due' ? account.graceEndedAt : null,
      lastEventAt: created,
    };
    return { ...(await this.save(tx, organizationId, account, change)), cancel };
  }

  /**
   * Before the transaction: when a subscription event names a live subscription other than the
   * organization's live one, both as Stripe shows them now (reads only; Stripe failing is 503
   * with nothing recorded).
   */
  private async readRivals(event: Stripe.Event): Promise<Rivals | null> {
    if (event.type !== 'customer.subscription.created' && event.type !== 'customer.subscription.updated') return null;
    const sub = event.data.object as StripeSubscriptionLike;
    if (!isLiveSubscription(statusOf(sub.status))) return null;
    const organizationId = await this.repo.organizationOfCustomer(subscriptionFields(sub).customerId);
    const account = organizationId ? await this.repo.find(organizationId) : null;
    const currentId = account?.stripeSubscriptionId;
    if (!account || !currentId || currentId === sub.id || !isLiveSubscription(account.status)) return null;
    const stripe = this.stripe!;
    const [current, incoming] = await Promise.all([currentId, sub.id].map((id) => callStripe(() => stripe.subscriptions.retrieve(id))));
    return { current, incoming };
  }

  /** In the transaction: which subscription stays; the locked account must still be the one Stripe was read for (else 503 and Stripe redelivers). */
  private decideRivals(rivals: Rivals | null, currentId: string, incomingId: string) {
    if (!rivals || rivals.current.id !== currentId || rivals.incoming.id !== incomingId) throw new BillingUnavailableError();
    return keepNewest(rivals.current, rivals.incoming);
  }

  /**
   * After the commit: cancels the older of two live subscriptions at Stripe with `prorate` and
   * `invoice_now` (its unused time becomes a credit on the customer's balance), unless Stripe
   * already shows it ended. Stripe failing answers 503; the event stays marked with the
   * subscription, and Stripe's redelivery (a duplicate: nothing applied again) retries only this.
   */
  private async cancelOlder(eventId: string, subscriptionId: string, organizationId?: string): Promise<void> {
    const stripe = this.stripe!;
    const sub = await callStripe(() => stripe.subscriptions.retrieve(subscriptionId));
    if (isLiveSubscription(statusOf(sub.status))) {
      try {
        await callStripe(() => stripe.subscriptions.cancel(subscriptionId, { prorate: true, invoice_now: true }));
        this.logger.warn({ organizationId, canceled: subscriptionId }, 'two live subscriptions: the older one canceled');
      } catch (err) {
        // Another copy of the event canceled it between our read and our cancel: Stripe answers a
        // canceled subscription's cancel as missing. It is canceled, which is all this wanted.
        if (!isStripeMissing(err)) throw err;
      }
    }
    await this.repo.cancelDone(eventId);
  }

  /** `invoice.payment_failed` → past_due (the grace starts at the first failure); `invoice.paid` ends a past_due run. */
  private async invoiceEvent(tx: PrismaTx, invoice: Stripe.Invoice, paid: boolean, created: Date): Promise<Applied> {
    const customerId = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    const organizationId = customerId ? await this.repo.organizationOfCustomer(customerId, tx) : null;
    if (!organizationId) return { outcome: 'unknown-customer' };
    const account = await this.repo.lock(tx, organizationId);
    if (!account) return { outcome: 'unknown-customer' };
    const subscriptionId = invoiceSubscription(invoice as { parent?: unknown });
    if (!subscriptionId || (account.stripeSubscriptionId && subscriptionId !== account.stripeSubscriptionId)) return { outcome: 'ignored', organizationId };
    if (account.lastEventAt && created < account.lastEventAt) return { outcome: 'stale', organizationId };
    if (paid) {
      // A paid invoice of a subscription in good standing changes nothing.
      if (account.status !== 'past_due') return { outcome: 'ignored', organizationId };
      return this.save(tx, organizationId, account, { stripeSubscriptionId: subscriptionId, status: 'active', pastDueSince: null, graceEndedAt: null, lastEventAt: created });
    }
    if (account.status === 'canceled' || account.status === 'none') return { outcome: 'ignored', organizationId };
    const result = await this.save(tx, organizationId, account, {
      stripeSubscriptionId: subscriptionId,
      status: 'past_due',
      pastDueSince: account.pastDueSince ?? created,
      lastEventAt: created,
    });
    return { ...result, paymentFailed: true };
  }

  /** Writes the change and the organization's tier as the new state gives it. */
  private async save(tx: PrismaTx, organizationId: string, account: BillingAccountRow, change: BillingAccountChange): Promise<Applied> {
    await this.repo.update(tx, organizationId, change);
    const next = { ...account, ...change };
    const to = effectiveTier(next, this.clock.now());
    const from = await this.repo.setTier(tx, organizationId, to);
    const changes = Object.fromEntries(
      Object.entries(change).filter(([k, v]) => k !== 'lastEventAt' && String(account[k as keyof BillingAccountRow]) !== String(v)),
    );
    return { outcome: 'applied', organizationId, tier: { from, to }, changes };
  }

  /** The organization's locked account; created for a checkout whose customer row was never written (a failure after Stripe made the session). */
  private async accountFor(tx: PrismaTx, organizationId: string, customerId: string): Promise<BillingAccountRow | null> {
    const account = await this.repo.lock(tx, organizationId);
    if (account) return account;
    if (!(await this.repo.createAccount(tx, organizationId, customerId))) return null;
    return this.repo.lock(tx, organizationId);
  }
}
