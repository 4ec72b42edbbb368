import type Stripe from 'stripe';
import { PlanLimits } from '@dl/auth';
import { BILLABLE_TIERS, StripePrices } from '@dl/platform/config';
import { Tier } from '@dl/platform/db';
import { ShapeAgrees } from '@dl/platform/http';
import { BillingPlanDto, BillingResponseDto, InvoiceDto } from './billing-response.dto';
import { BillingAccountRow } from './billing.repository';

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function toInvoice(i: Stripe.Invoice) {
  return {
    id: i.id,
    number: i.number,
    status: i.status,
    amountDue: i.amount_due,
    amountPaid: i.amount_paid,
    currency: i.currency,
    periodStart: iso(i.period_start),
    periodEnd: iso(i.period_end),
    hostedInvoiceUrl: i.hosted_invoice_url ?? null,
    pdfUrl: i.invoice_pdf ?? null,
    createdAt: iso(i.created),
  };
}

/** FREE first (nothing to pay, in the currency of the first paid plan), then every tier sold. */
export function toPlans(prices: StripePrices, limits: (tier: Tier) => Readonly<PlanLimits>) {
  const currency = Object.values(prices)[0]?.month.currency ?? 'usd';
  const free = { tier: 'FREE' as Tier, month: { amount: 0, currency }, year: { amount: 0, currency }, limits: { ...limits('FREE') } };
  const paid = BILLABLE_TIERS.filter((t) => prices[t]).map((tier) => {
    const p = prices[tier]!;
    return {
      tier: tier as Tier,
      month: { amount: p.month.amount, currency: p.month.currency },
      year: { amount: p.year.amount, currency: p.year.currency },
      limits: { ...limits(tier) },
    };
  });
  return [free, ...paid];
}

export function toBilling(tier: Tier, account: BillingAccountRow | null, plans: ReturnType<typeof toPlans>) {
  return {
    tier,
    status: account?.status ?? 'none',
    interval: account?.interval ?? null,
    currentPeriodEnd: account?.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: account?.cancelAtPeriodEnd ?? false,
    plans,
  };
}

export const BILLING_SHAPES_AGREE: [
  ShapeAgrees<InvoiceDto, ReturnType<typeof toInvoice>>,
  ShapeAgrees<BillingPlanDto, ReturnType<typeof toPlans>[number]>,
  ShapeAgrees<BillingResponseDto, ReturnType<typeof toBilling>>,
] = [true, true, true];
