import type { BillableTier, BillingInterval, StripePrices } from '@dl/platform/config';
import type { Tier } from '@dl/platform/db';

/** decisions §21's statuses. */
export type BillingStatus = 'none' | 'active' | 'trialing' | 'past_due' | 'canceled';

/** A past-due subscription keeps its paid tier this long after the first failed payment. */
export const GRACE_MS = 7 * 24 * 3600 * 1000;

/** What the organization's subscription looks like after the events applied so far. */
export interface SubscriptionState {
  status: BillingStatus;
  paidTier: Tier | null;
  pastDueSince: Date | null;
}

/**
 * Stripe's subscription statuses in decisions §21's words: `unpaid` (retries exhausted) counts
 * as past_due (its grace has usually ended by then), `incomplete` (first payment pending) as
 * none, `incomplete_expired` and `paused` (nothing is being paid) as canceled.
 */
export function statusOf(stripeStatus: string): BillingStatus {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'canceled':
      return stripeStatus;
    case 'unpaid':
      return 'past_due';
    case 'incomplete':
      return 'none';
    default:
      return 'canceled';
  }
}

/** A subscription Stripe still bills (or retries): a second Checkout would start another one beside it. */
export const isLiveSubscription = (status: BillingStatus) => status === 'active' || status === 'trialing' || status === 'past_due';

/** The tier the organization has under this state at `now`: the paid tier while paid or within the grace, else FREE. */
export function effectiveTier(state: SubscriptionState, now: Date): Tier {
  if (!state.paidTier) return 'FREE';
  if (state.status === 'active' || state.status === 'trialing') return state.paidTier;
  if (state.status === 'past_due') {
    return state.pastDueSince && now.getTime() - state.pastDueSince.getTime() < GRACE_MS ? state.paidTier : 'FREE';
  }
  return 'FREE';
}

/** Plans ranked for "is this a downgrade". */
const RANK: Record<Tier, number> = { FREE: 0, PRO: 1, BUSINESS: 2, UNLIMITED: 3 };
export const isDowngrade = (from: Tier, to: Tier) => RANK[to] < RANK[from];

/** The tier and interval a Stripe price id sells (from STRIPE_PRICES), or null for a price we do not know. */
export function planOfPrice(prices: StripePrices, priceId: string): { tier: BillableTier; interval: BillingInterval } | null {
  for (const [tier, intervals] of Object.entries(prices)) {
    for (const interval of ['month', 'year'] as const) {
      if (intervals?.[interval].price === priceId) return { tier: tier as BillableTier, interval };
    }
  }
  return null;
}

/** The fields of a Stripe subscription object the state machine reads (both the current and the pre-2025 shapes). */
export interface StripeSubscriptionLike {
  id: string;
  customer: string | { id: string };
  status: string;
  cancel_at_period_end?: boolean;
  current_period_end?: number;
  items?: { data?: Array<{ current_period_end?: number; price?: { id?: string } }> };
}

export function subscriptionFields(sub: StripeSubscriptionLike): {
  customerId: string;
  priceId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
} {
  const item = sub.items?.data?.[0];
  // Current API versions keep the period on the item; older ones on the subscription.
  const end = item?.current_period_end ?? sub.current_period_end;
  return {
    customerId: typeof sub.customer === 'string' ? sub.customer : sub.customer.id,
    priceId: item?.price?.id ?? null,
    currentPeriodEnd: typeof end === 'number' ? new Date(end * 1000) : null,
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
  };
}

/** The subscription an invoice belongs to (`parent.subscription_details.subscription`, or the older `subscription`). */
export function invoiceSubscription(invoice: { parent?: unknown; subscription?: unknown }): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: string | { id: string } } } | null | undefined;
  const sub = parent?.subscription_details?.subscription ?? (invoice.subscription as string | { id: string } | null | undefined);
  if (!sub) return null;
  return typeof sub === 'string' ? sub : sub.id;
}

/** A subscription as Stripe shows it now (read with `subscriptions.retrieve`). */
export interface StripeSubscriptionNow {
  id: string;
  status: string;
  created: number;
}

/**
 * Two live subscriptions of one customer (two Checkouts paid): which one the organization keeps
 * and which one to cancel at Stripe. The newest (Stripe's `created`, then the id) stays; one that
 * Stripe already shows as ended is not canceled again, and the other one is kept.
 */
export function keepNewest(current: StripeSubscriptionNow, incoming: StripeSubscriptionNow): { keep: 'current' | 'incoming'; cancel: string | null } {
  if (!isLiveSubscription(statusOf(current.status))) return { keep: 'incoming', cancel: null };
  if (!isLiveSubscription(statusOf(incoming.status))) return { keep: 'current', cancel: null };
  const incomingFirst = incoming.created < current.created || (incoming.created === current.created && incoming.id < current.id);
  return incomingFirst ? { keep: 'current', cancel: incoming.id } : { keep: 'incoming', cancel: current.id };
}
