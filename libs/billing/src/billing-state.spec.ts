import { effectiveTier, GRACE_MS, invoiceSubscription, isDowngrade, keepNewest, planOfPrice, statusOf, subscriptionFields } from './billing-state';

const PRICES = {
  PRO: { month: { price: 'price_pm', amount: 1900, currency: 'usd' }, year: { price: 'price_py', amount: 19000, currency: 'usd' } },
  BUSINESS: { month: { price: 'price_bm', amount: 9900, currency: 'usd' }, year: { price: 'price_by', amount: 99000, currency: 'usd' } },
};

describe('billing state machine', () => {
  const now = new Date('2026-11-20T12:00:00Z');

  it('keeps the paid tier while active or trialing, FREE when canceled or none', () => {
    expect(effectiveTier({ status: 'active', paidTier: 'PRO', pastDueSince: null }, now)).toBe('PRO');
    expect(effectiveTier({ status: 'trialing', paidTier: 'BUSINESS', pastDueSince: null }, now)).toBe('BUSINESS');
    expect(effectiveTier({ status: 'canceled', paidTier: 'PRO', pastDueSince: null }, now)).toBe('FREE');
    expect(effectiveTier({ status: 'none', paidTier: 'PRO', pastDueSince: null }, now)).toBe('FREE');
    expect(effectiveTier({ status: 'active', paidTier: null, pastDueSince: null }, now)).toBe('FREE');
  });

  it('keeps the paid tier for 7 days past due, then FREE', () => {
    const since = (ms: number) => ({ status: 'past_due' as const, paidTier: 'PRO' as const, pastDueSince: new Date(now.getTime() - ms) });
    expect(effectiveTier(since(0), now)).toBe('PRO');
    expect(effectiveTier(since(GRACE_MS - 1), now)).toBe('PRO');
    expect(effectiveTier(since(GRACE_MS), now)).toBe('FREE');
    expect(effectiveTier({ status: 'past_due', paidTier: 'PRO', pastDueSince: null }, now)).toBe('FREE');
  });

  it("maps Stripe's statuses", () => {
    expect(['active', 'trialing', 'past_due', 'canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused'].map(statusOf)).toEqual([
      'active', 'trialing', 'past_due', 'canceled', 'past_due', 'none', 'canceled', 'canceled',
    ]);
  });

  it('ranks downgrades', () => {
    expect(isDowngrade('PRO', 'FREE')).toBe(true);
    expect(isDowngrade('BUSINESS', 'PRO')).toBe(true);
    expect(isDowngrade('PRO', 'BUSINESS')).toBe(false);
    expect(isDowngrade('PRO', 'PRO')).toBe(false);
  });

  it('finds the plan of a price', () => {
    expect(planOfPrice(PRICES, 'price_by')).toEqual({ tier: 'BUSINESS', interval: 'year' });
    expect(planOfPrice(PRICES, 'price_unknown')).toBeNull();
  });

  it('of two live subscriptions keeps the newest and cancels the other; one already ended is not canceled', () => {
    const sub = (id: string, created: number, status = 'active') => ({ id, created, status });
    expect(keepNewest(sub('sub_a', 100), sub('sub_b', 105))).toEqual({ keep: 'incoming', cancel: 'sub_a' });
    expect(keepNewest(sub('sub_b', 105), sub('sub_a', 100, 'past_due'))).toEqual({ keep: 'current', cancel: 'sub_a' });
    expect(keepNewest(sub('sub_b', 100), sub('sub_a', 100, 'trialing'))).toEqual({ keep: 'current', cancel: 'sub_a' });
    expect(keepNewest(sub('sub_a', 100, 'canceled'), sub('sub_b', 90))).toEqual({ keep: 'incoming', cancel: null });
    expect(keepNewest(sub('sub_a', 100), sub('sub_b', 105, 'incomplete_expired'))).toEqual({ keep: 'current', cancel: null });
  });

  it('reads the current and the older subscription and invoice shapes', () => {
    expect(subscriptionFields({ id: 'sub_1', customer: 'cus_1', status: 'active', cancel_at_period_end: true, items: { data: [{ current_period_end: 1_800_000_000, price: { id: 'price_pm' } }] } })).toEqual({
      customerId: 'cus_1', priceId: 'price_pm', currentPeriodEnd: new Date(1_800_000_000_000), cancelAtPeriodEnd: true,
    });
    expect(subscriptionFields({ id: 'sub_1', customer: { id: 'cus_2' }, status: 'active', current_period_end: 1_700_000_000 })).toEqual({
      customerId: 'cus_2', priceId: null, currentPeriodEnd: new Date(1_700_000_000_000), cancelAtPeriodEnd: false,
    });
    expect(invoiceSubscription({ parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_9' } } })).toBe('sub_9');
    expect(invoiceSubscription({ subscription: 'sub_8' })).toBe('sub_8');
    expect(invoiceSubscription({ parent: null })).toBeNull();
  });
});
