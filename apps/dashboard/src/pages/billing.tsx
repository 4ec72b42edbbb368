import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { sessionClaims } from '../api/session';
import { fmtDate, fmtNumber, fmtPercent } from '../components/format';
import { ErrorBanner, Loading, PageHeader, Stat } from '../components/ui';
import { PlanMeters } from '../components/plan-meters';

type Billing = components['schemas']['BillingResponseDto'];
type Plan = Billing['plans'][number];
type Interval = 'month' | 'year';

const STATUS: Record<Billing['status'], { label: string; tone: string }> = {
  none: { label: 'No subscription', tone: '' },
  active: { label: 'Active', tone: 'ok' },
  trialing: { label: 'Trial', tone: 'ok' },
  past_due: { label: 'Payment failed', tone: 'bad' },
  canceled: { label: 'Canceled', tone: 'warn' },
};

const money = (amount: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(amount / 100);

const plural = (n: number, word: string) => `${fmtNumber(n)} ${word}${n === 1 ? '' : 's'}`;

/** `action`: what choosing this plan does for the caller (Checkout, the portal for a subscriber, or nothing). */
function PlanCard({ plan, interval, current, action, busy, onChoose }: { plan: Plan; interval: Interval; current: boolean; action: 'checkout' | 'portal' | null; busy: boolean; onChoose: () => void }) {
  const price = plan[interval];
  const l = plan.limits;
  return (
    <div className="card plan-card" data-testid={`plan-${plan.tier}`} aria-current={current ? 'true' : undefined}>
      <h3>
        {plan.tier} {current && <span className="pill ok">Current plan</span>}
      </h3>
      <p className="value">
        {price.amount === 0 ? 'Free' : money(price.amount, price.currency)}
        {price.amount > 0 && <span className="muted"> / {interval}</span>}
      </p>
      <ul className="plan-limits">
        <li>{l.links == null ? 'Unlimited links' : `${fmtNumber(l.links)} links`}</li>
        <li>{l.clicksPerMonth == null ? 'Unlimited clicks' : `${fmtNumber(l.clicksPerMonth)} clicks a month`}</li>
        <li>{fmtNumber(l.requestsPerMinute)} API requests a minute</li>
        <li>{l.apiKeys == null ? 'Unlimited API keys' : plural(l.apiKeys, 'API key')}</li>
        <li>{l.rawClickRetentionDays >= 365 ? plural(Math.round(l.rawClickRetentionDays / 365), 'year') : plural(l.rawClickRetentionDays, 'day')} of click history</li>
        <li>{l.eventAnalytics ? 'Event analytics' : 'No event analytics'}</li>
      </ul>
      {action === 'checkout' && !current && plan.tier !== 'FREE' && (
        <button type="button" className="button primary wide" disabled={busy} onClick={onChoose}>
          Upgrade to {plan.tier}
        </button>
      )}
      {action === 'portal' && !current && (
        <>
          <button type="button" className="button wide" disabled={busy} onClick={onChoose}>
            Switch to {plan.tier}
          </button>
          <span className="hint">In Stripe's billing portal, prorated.</span>
        </>
      )}
    </div>
  );
}

export default function BillingPage() {
  const role = sessionClaims()?.role;
  const isOwner = role === 'OWNER';
  const seesInvoices = isOwner || role === 'ADMIN';
  const [params] = useSearchParams();
  const [chosen, setPeriod] = useState<Interval | null>(null);
  const billing = useQuery({ queryKey: ['billing'], queryFn: () => unwrap(api.GET('/api/billing')), retry: false });
  const enabled = !!billing.data;
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => unwrap(api.GET('/api/usage')), enabled });
  const invoices = useQuery({ queryKey: ['billing', 'invoices'], queryFn: () => unwrap(api.GET('/api/billing/invoices')), enabled: enabled && seesInvoices });
  const interval: Interval = chosen ?? billing.data?.interval ?? 'month';
  const go = (url: string) => window.location.assign(url);
  const checkout = useMutation({
    mutationFn: (tier: Plan['tier']) => unwrap(api.POST('/api/billing/checkout', { body: { tier: tier as 'PRO' | 'BUSINESS' | 'UNLIMITED', interval } })),
    onSuccess: (r) => go(r.url),
  });
  const portal = useMutation({ mutationFn: () => unwrap(api.POST('/api/billing/portal')), onSuccess: (r) => go(r.url) });

  if (billing.isPending) return <section className="page"><PageHeader title="Billing" /><Loading /></section>;
  if (billing.error instanceof ApiError && billing.error.status === 404) {
    return (
      <section className="page">
        <PageHeader title="Billing" />
        <div className="card">
          <p>Billing is not enabled on this installation: the operator sets each organization's plan.</p>
        </div>
      </section>
    );
  }
  const b = billing.data;
  const status = b ? STATUS[b.status] : null;
  const subscribed = b && b.status !== 'none';
  // A live subscription changes plan in Stripe's portal (prorated), not with a second Checkout.
  const live = b && (b.status === 'active' || b.status === 'trialing' || b.status === 'past_due');
  const action = !isOwner ? null : live ? 'portal' : 'checkout';
  return (
    <section className="page">
      <PageHeader title="Billing">
        {isOwner && subscribed && (
          <button type="button" className="button" disabled={portal.isPending} onClick={() => portal.mutate()}>
            Manage billing
          </button>
        )}
      </PageHeader>
      <ErrorBanner error={billing.error ?? checkout.error ?? portal.error} />
      {params.get('checkout') === 'success' && <div className="card notice" role="status">Thank you: your payment went through. The new plan applies as soon as Stripe confirms it, usually within seconds.</div>}
      {params.get('checkout') === 'canceled' && <div className="card notice" role="status">Checkout was canceled: nothing was charged.</div>}
      {b && status && (
        <>
          <div className="card" data-testid="current-plan">
            <h2>
              {b.tier} plan <span className={`pill ${status.tone}`}>{status.label}</span>
            </h2>
            {b.status === 'past_due' && <p className="field-error">The last payment failed. Update the payment method in the billing portal: after 7 days the organization moves to FREE (nothing is deleted).</p>}
            {b.currentPeriodEnd && (
              <p className="hint">
                {b.cancelAtPeriodEnd ? 'Ends' : 'Renews'} on {fmtDate(b.currentPeriodEnd)}
                {b.interval ? `, billed every ${b.interval}` : ''}.
              </p>
            )}
            {!subscribed && <p className="hint">No subscription: choose a plan below{isOwner ? '' : ' (the organization owner pays for plans)'}.</p>}
          </div>
          {usage.data && (
            <PlanMeters usage={usage.data} over="Over the plan: nothing is removed, creating more is refused" />
          )}
          <div className="page-header">
            <h2>Plans</h2>
            <div className="segmented" role="group" aria-label="Billing period">
              <button type="button" aria-pressed={interval === 'month'} onClick={() => setPeriod('month')}>Monthly</button>
              <button type="button" aria-pressed={interval === 'year'} onClick={() => setPeriod('year')}>Yearly</button>
            </div>
          </div>
          <div className="grid-3 plans">
            {b.plans.map((p) => (
              <PlanCard
                key={p.tier}
                plan={p}
                interval={interval}
                current={p.tier === b.tier}
                action={action}
                busy={checkout.isPending || portal.isPending}
                onChoose={() => (action === 'portal' ? portal.mutate() : checkout.mutate(p.tier))}
              />
            ))}
          </div>
          {seesInvoices && (
            <div className="card">
              <h2>Invoices</h2>
              <ErrorBanner error={invoices.error} />
              {invoices.isPending ? (
                <Loading />
              ) : invoices.data?.invoices.length ? (
                <div className="table-wrap">
                  <table className="plain" data-testid="invoices">
                    <thead>
                      <tr><th>Invoice</th><th className="wide-only">Date</th><th className="wide-only">Period</th><th>Amount</th><th>Status</th><th /></tr>
                    </thead>
                    <tbody>
                      {invoices.data.invoices.map((i) => (
                        <tr key={i.id}>
                          <td className="invoice-number">{i.number ?? i.id}</td>
                          <td className="wide-only">{fmtDate(i.createdAt)}</td>
                          <td className="wide-only">{fmtDate(i.periodStart)} – {fmtDate(i.periodEnd)}</td>
                          <td className="cell-num">{money(i.amountDue, i.currency)}</td>
                          <td><span className={`pill ${i.status === 'paid' ? 'ok' : i.status === 'open' ? 'warn' : ''}`}>{i.status ?? '—'}</span></td>
                          <td>
                            <span className="invoice-links">
                              {i.hostedInvoiceUrl && <a href={i.hostedInvoiceUrl} target="_blank" rel="noreferrer">View</a>}
                              {i.pdfUrl && <a href={i.pdfUrl} target="_blank" rel="noreferrer">PDF</a>}
                            </span>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ) : (
                <p className="hint">No invoices yet: they appear here after the first payment.</p>
              )}
            </div>
          )}
        </>
      )}
    </section>
  );
}
