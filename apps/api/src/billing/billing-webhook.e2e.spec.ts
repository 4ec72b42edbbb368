import { addMember, SeededOrganization, seedOrganization, signStripePayload, startApp, stripeEvent, useSuite } from '@dl/testing';
import { createApiApp } from '../app';
import { billingWorld, BillingWorld, eventually } from './test/billing-world';

const DAY = 24 * 3600 * 1000;
const now = () => Math.floor(Date.now() / 1000);

/** An organization that went through Checkout: its session, subscription and first invoice at the test server. */
async function subscribe(w: BillingWorld, org: SeededOrganization, interval: 'month' | 'year' = 'month', created = now()) {
  expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval })).status).toBe(200);
  const session = [...w.stripe.checkoutSessions.values()].filter((s) => s.client_reference_id === org.organization.id).at(-1)!;
  const done = w.stripe.completeCheckout(session.id as string, { now: created });
  expect(await w.deliver(stripeEvent('checkout.session.completed', done.session, { created }))).toEqual({ status: 200, body: { received: true } });
  expect((await w.deliver(stripeEvent('customer.subscription.created', done.subscription, { created }))).status).toBe(200);
  return done;
}

const billing = async (w: BillingWorld, org: SeededOrganization) => (await w.call('GET', '/api/billing', org.owner.jwt)).body;
/** The plan's rate limit an api process applies to the organization's API key (that process's credential cache). */
const rateLimit = async (w: BillingWorld, org: SeededOrganization, apiUrl = w.api.url) =>
  Number((await fetch(`${apiUrl}/api/usage`, { headers: { authorization: `Bearer ${org.owner.apiKey}` } })).headers.get('x-ratelimit-limit'));

describe('Stripe webhook: POST /billing/stripe/webhook', () => {
  // `other` is a second api process on the same database and Redis: a tier change must reach it too.
  const w = useSuite(async (own) => {
    const world = own(await billingWorld({ RATE_LIMIT_WINDOW_MS: '1000' }));
    return Object.assign(world, { other: own(await startApp(createApiApp, world.env.config)) });
  });

  it('records the checkout the Owner started and the plan change the webhook applied (as the system)', async () => {
    const org = await seedOrganization(w.env, { name: 'Audit Co' });
    await subscribe(w, org);
    const where = { organizationId: org.organization.id };
    await eventually(async () => (await w.env.prisma.auditEntry.count({ where: { ...where, action: 'billing.plan_changed' } })) === 1);
    const rows = await w.env.prisma.auditEntry.findMany({ where, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => [r.action, r.actorType, r.actorId, r.targetId])).toEqual([
      ['billing.checkout_started', 'user', org.owner.user.id, org.organization.id],
      ['billing.plan_changed', 'system', null, org.organization.id],
    ]);
    expect(rows[0].changes).toEqual({ tier: 'PRO', interval: 'month' });
    expect(rows[1].changes).toMatchObject({ tier: { from: 'FREE', to: 'PRO' }, status: 'active', paidTier: 'PRO', interval: 'month' });
  });

  it('the whole path: checkout → PRO (limit 60) → payment failed keeps PRO → 7 days later FREE → invoice.paid → PRO', async () => {
    const org = await seedOrganization(w.env, { name: 'Path Co' });
    const admin = await addMember(w.env, org.organization.id, 'ADMIN');
    const everywhere = async (limit: number) => {
      await eventually(async () => (await rateLimit(w, org)) === limit && (await rateLimit(w, org, w.other.url)) === limit, 60_000);
    };
    expect([await rateLimit(w, org), await rateLimit(w, org, w.other.url)]).toEqual([10, 10]);
    const done = await subscribe(w, org);
    const sub = done.subscription as { id: string; items: { data: Array<{ current_period_end: number }> } };
    expect(await billing(w, org)).toMatchObject({
      tier: 'PRO',
      status: 'active',
      interval: 'month',
      currentPeriodEnd: new Date(sub.items.data[0].current_period_end * 1000).toISOString(),
      cancelAtPeriodEnd: false,
    });
    expect(await w.env.prisma.billingAccount.findUnique({ where: { organizationId: org.organization.id } })).toMatchObject({ stripeSubscriptionId: sub.id, paidTier: 'PRO' });
    // The API key's plan limit on both processes (their credential caches were told): within 60 s.
    await everywhere(60);

    const failed = w.stripe.addInvoice(sub.id, { status: 'open', now: now() + 1 });
    expect((await w.deliver(stripeEvent('invoice.payment_failed', failed, { created: now() + 1 }))).status).toBe(200);
    expect(await billing(w, org)).toMatchObject({ tier: 'PRO', status: 'past_due' });
    const failedMail = (await w.mails(org.owner.user.email)).find((m) => m.includes('Payment failed'));
    expect(failedMail).toContain('Subject: Payment failed for Path Co: update your card to keep PRO');

    w.clock.advance(7 * DAY - 60_000);
    await new Promise((r) => setTimeout(r, 600));
    expect((await billing(w, org)).tier).toBe('PRO');
    w.clock.advance(61_000);
    await eventually(async () => (await billing(w, org)).tier === 'FREE');
    expect(await billing(w, org)).toMatchObject({ tier: 'FREE', status: 'past_due' });
    await everywhere(10);
    await eventually(async () => (await w.mails(org.owner.user.email)).some((m) => m.includes('Subject: Path Co is now on the FREE plan')));

    const paid = { ...failed, status: 'paid', amount_paid: failed.amount_due };
    expect((await w.deliver(stripeEvent('invoice.paid', paid, { created: now() + 2 }))).status).toBe(200);
    expect(await billing(w, org)).toMatchObject({ tier: 'PRO', status: 'active' });
    await everywhere(60);
    // Billing emails go to the Owners only.
    expect(await w.mails(admin.user.email)).toEqual([]);

    const invoices = await w.call('GET', '/api/billing/invoices', org.owner.jwt);
    expect(invoices.body.invoices).toHaveLength(2);
    expect(invoices.body.invoices[0]).toEqual({
      id: failed.id,
      number: failed.number,
      status: 'open',
      amountDue: 1900,
      amountPaid: 0,
      currency: 'usd',
      periodStart: expect.stringMatching(/Z$/),
      periodEnd: expect.stringMatching(/Z$/),
      hostedInvoiceUrl: failed.hosted_invoice_url,
      pdfUrl: failed.invoice_pdf,
      createdAt: new Date((failed.created as number) * 1000).toISOString(),
    });
  });

  it('a wrong, stale or missing signature → 400 Invalid signature, nothing applied', async () => {
    const org = await seedOrganization(w.env);
    await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' });
    const session = [...w.stripe.checkoutSessions.values()].filter((s) => s.client_reference_id === org.organization.id).at(-1)!;
    const done = w.stripe.completeCheckout(session.id as string);
    const event = stripeEvent('customer.subscription.created', done.subscription);
    const invalid = { status: 400, body: { error: 'Bad Request', message: 'Invalid signature', statusCode: 400 } };
    expect(await w.deliver(event, { signature: signStripePayload(JSON.stringify(event, null, 2), 'whsec_someone_else_123456') })).toEqual(invalid);
    expect(await w.deliver(event, { timestamp: now() - 301 })).toEqual(invalid);
    expect(await w.deliver(event, { signature: null })).toEqual(invalid);
    expect(await w.deliver(event, { signature: `t=${now()},v1=${'0'.repeat(64)}` })).toEqual(invalid);
    expect(await w.env.prisma.stripeEvent.count({ where: { id: event.id } })).toBe(0);
    expect((await billing(w, org)).tier).toBe('FREE');
    expect((await w.deliver(event)).status).toBe(200);
    expect((await billing(w, org)).tier).toBe('PRO');
  });

  it('the same event twice is applied once', async () => {
    const org = await seedOrganization(w.env);
    const done = await subscribe(w, org);
    const failed = w.stripe.addInvoice(done.subscription.id as string, { status: 'open', now: now() + 1 });
    const event = stripeEvent('invoice.payment_failed', failed, { created: now() + 1 });
    const [a, b] = await Promise.all([w.deliver(event), w.deliver(event)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await w.deliver(event)).status).toBe(200);
    expect(await w.env.prisma.stripeEvent.findMany({ where: { id: event.id }, select: { outcome: true } })).toEqual([{ outcome: 'applied' }]);
    await new Promise((r) => setTimeout(r, 300));
    expect((await w.mails(org.owner.user.email)).filter((m) => m.includes('Payment failed'))).toHaveLength(1);
  });

  it('an older event never overwrites a newer state', async () => {
    const org = await seedOrganization(w.env);
    const t = now();
    const done = await subscribe(w, org, 'month', t);
    const newer = { ...done.subscription, cancel_at_period_end: true };
    const older = { ...done.subscription, cancel_at_period_end: false, status: 'past_due' };
    expect((await w.deliver(stripeEvent('customer.subscription.updated', newer, { created: t + 10 }))).status).toBe(200);
    const stale = stripeEvent('customer.subscription.updated', older, { created: t + 5 });
    expect((await w.deliver(stale)).status).toBe(200);
    expect(await billing(w, org)).toMatchObject({ tier: 'PRO', status: 'active', cancelAtPeriodEnd: true });
    expect((await w.env.prisma.stripeEvent.findUnique({ where: { id: stale.id } }))?.outcome).toBe('stale');
    // An invoice event older than the state is stale too: no past_due, no email.
    const lateFailure = stripeEvent('invoice.payment_failed', w.stripe.addInvoice(done.subscription.id as string, { status: 'open', now: t + 6 }), { created: t + 6 });
    expect((await w.deliver(lateFailure)).status).toBe(200);
    expect((await w.env.prisma.stripeEvent.findUnique({ where: { id: lateFailure.id } }))?.outcome).toBe('stale');
    expect(await billing(w, org)).toMatchObject({ tier: 'PRO', status: 'active' });

    // Canceled at the period's end: Stripe deletes the subscription → FREE, the Owners told.
    const deleted = { ...newer, status: 'canceled', ended_at: t + 20 };
    expect((await w.deliver(stripeEvent('customer.subscription.deleted', deleted, { created: t + 20 }))).status).toBe(200);
    expect(await billing(w, org)).toMatchObject({ tier: 'FREE', status: 'canceled', cancelAtPeriodEnd: false });
    await eventually(async () => (await w.mails(org.owner.user.email)).some((m) => m.includes('is now on the FREE plan')));
    expect((await w.mails(org.owner.user.email)).filter((m) => m.includes('Payment failed'))).toEqual([]);
  });

  it('a checkout while a subscription is live → 409 pointing to the portal, and no second session; after it ends, Checkout again', async () => {
    const org = await seedOrganization(w.env, { name: 'Second Sub Co' });
    const t = now();
    const done = await subscribe(w, org, 'month', t);
    const sessions = () => [...w.stripe.checkoutSessions.values()].filter((s) => s.client_reference_id === org.organization.id).length;
    const made = sessions();
    const refused = { status: 409, body: { error: 'Conflict', message: 'Subscription already active: change plans in the billing portal', statusCode: 409 } };
    // Active, then past due (Stripe still retries the payment): no second subscription beside it.
    expect(await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'BUSINESS', interval: 'year' })).toMatchObject(refused);
    const pastDue = { ...done.subscription, status: 'past_due' };
    expect((await w.deliver(stripeEvent('customer.subscription.updated', pastDue, { created: t + 5 }))).status).toBe(200);
    expect(await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'BUSINESS', interval: 'month' })).toMatchObject(refused);
    // The same tier keeps its own message.
    expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'year' })).body.message).toBe('Your organization is already on the PRO plan');
    expect(sessions()).toBe(made);
    expect((await w.call('POST', '/api/billing/portal', org.owner.jwt)).status).toBe(200);

    const deleted = { ...pastDue, status: 'canceled', ended_at: t + 10 };
    expect((await w.deliver(stripeEvent('customer.subscription.deleted', deleted, { created: t + 10 }))).status).toBe(200);
    expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'BUSINESS', interval: 'month' })).status).toBe(200);
    expect(sessions()).toBe(made + 1);
  });

  it("checkout.session.completed links the customer and the subscription, creating the account when the checkout's own write was lost", async () => {
    const org = await seedOrganization(w.env);
    const where = { organizationId: org.organization.id };
    expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' })).status).toBe(200);
    const session = [...w.stripe.checkoutSessions.values()].filter((s) => s.client_reference_id === org.organization.id).at(-1)!;
    const done = w.stripe.completeCheckout(session.id as string);
    // The account row written after Stripe made the session is lost (the process died in between).
    await w.env.prisma.billingAccount.delete({ where });
    expect((await w.deliver(stripeEvent('checkout.session.completed', done.session))).status).toBe(200);
    const select = { stripeCustomerId: true, stripeSubscriptionId: true, status: true, paidTier: true } as const;
    expect(await w.env.prisma.billingAccount.findUnique({ where, select })).toEqual({ stripeCustomerId: session.customer, stripeSubscriptionId: done.subscription.id, status: 'none', paidTier: null });
    // The plan comes with the subscription's own event.
    expect((await billing(w, org)).tier).toBe('FREE');
    expect((await w.deliver(stripeEvent('customer.subscription.created', done.subscription))).status).toBe(200);
    expect(await billing(w, org)).toMatchObject({ tier: 'PRO', status: 'active', interval: 'month' });
  });

  it("a plan changed in the portal: customer.subscription.updated's price sets the tier and interval (trialing keeps it); a lower plan emails the Owners", async () => {
    const org = await seedOrganization(w.env, { name: 'Portal Co' });
    const t = now();
    const done = await subscribe(w, org, 'month', t);
    const items = done.subscription.items as { data: Array<Record<string, unknown>> };
    const onPrice = (price: string, status = 'active') => ({ ...done.subscription, status, items: { ...items, data: [{ ...items.data[0], price: { id: price, object: 'price' } }] } });
    expect((await w.deliver(stripeEvent('customer.subscription.updated', onPrice('price_biz_year'), { created: t + 1 }))).status).toBe(200);
    expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active', interval: 'year' });
    expect((await w.deliver(stripeEvent('customer.subscription.updated', onPrice('price_pro_month', 'trialing'), { created: t + 2 }))).status).toBe(200);
    expect(await billing(w, org)).toMatchObject({ tier: 'PRO', status: 'trialing', interval: 'month' });
    await eventually(async () => (await w.mails(org.owner.user.email)).some((m) => m.includes('Subject: Portal Co is now on the PRO plan')));
  });

  describe('two Checkouts paid (two tabs): the older subscription is canceled at Stripe, the newest kept', () => {
    /** Two Checkout sessions opened before either completes, both paid: PRO at `t`, BUSINESS at `t + 5`. */
    async function twoTabs(org: SeededOrganization, t: number) {
      expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' })).status).toBe(200);
      expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'BUSINESS', interval: 'month' })).status).toBe(200);
      const [first, second] = [...w.stripe.checkoutSessions.values()].filter((s) => s.client_reference_id === org.organization.id);
      return { older: w.stripe.completeCheckout(first.id as string, { now: t }), newer: w.stripe.completeCheckout(second.id as string, { now: t + 5 }) };
    }
    /** The older tab's checkout and subscription applied: the organization is on PRO. */
    async function olderApplied(org: SeededOrganization, t: number) {
      const tabs = await twoTabs(org, t);
      for (const [type, object] of [['checkout.session.completed', tabs.older.session], ['customer.subscription.created', tabs.older.subscription]] as const) {
        expect((await w.deliver(stripeEvent(type, object, { created: t }))).status).toBe(200);
      }
      return tabs;
    }
    const cancels = () => w.stripe.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/v1/subscriptions/'));
    const subscriptionOf = async (org: SeededOrganization) => (await w.env.prisma.billingAccount.findUniqueOrThrow({ where: { organizationId: org.organization.id } })).stripeSubscriptionId;

    it("in order: the second subscription.created cancels the first (DELETE, prorated) and the organization is on the newest plan; the old one's later events change nothing", async () => {
      const org = await seedOrganization(w.env, { name: 'Two Tabs Co' });
      const t = now();
      const { older, newer } = await olderApplied(org, t);
      const before = cancels().length;
      expect((await w.deliver(stripeEvent('checkout.session.completed', newer.session, { created: t + 5 }))).status).toBe(200);
      expect(await billing(w, org)).toMatchObject({ tier: 'PRO', status: 'active' });
      expect(cancels()).toHaveLength(before);

      expect((await w.deliver(stripeEvent('customer.subscription.created', newer.subscription, { created: t + 5 }))).status).toBe(200);
      expect(cancels().slice(before).map((r) => [r.path, r.params])).toEqual([[`/v1/subscriptions/${older.subscription.id as string}`, { prorate: 'true', invoice_now: 'true' }]]);
      expect(w.stripe.subscriptions.get(older.subscription.id as string)).toMatchObject({ status: 'canceled' });
      expect(w.stripe.subscriptions.get(newer.subscription.id as string)).toMatchObject({ status: 'active' });
      expect(await subscriptionOf(org)).toBe(newer.subscription.id);
      expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active' });

      // Stripe then tells us the old one ended: ignored, and nothing is canceled twice.
      const deleted = stripeEvent('customer.subscription.deleted', w.stripe.subscriptions.get(older.subscription.id as string)!, { created: t + 6 });
      expect((await w.deliver(deleted)).status).toBe(200);
      expect((await w.env.prisma.stripeEvent.findUnique({ where: { id: deleted.id } }))?.outcome).toBe('ignored');
      expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active' });
      expect(cancels()).toHaveLength(before + 1);
    });

    it("out of order: the newer subscription's event first, then the older one's: the older is canceled and its event ignored; Stripe unreachable → 503 and the retry does it", async () => {
      const org = await seedOrganization(w.env, { name: 'Late Tab Co' });
      const t = now();
      const { older, newer } = await twoTabs(org, t);
      const before = cancels().length;
      expect((await w.deliver(stripeEvent('checkout.session.completed', newer.session, { created: t + 5 }))).status).toBe(200);
      expect((await w.deliver(stripeEvent('customer.subscription.created', newer.subscription, { created: t + 5 }))).status).toBe(200);
      expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active' });

      const late = stripeEvent('customer.subscription.created', older.subscription, { created: t });
      w.stripe.mode = 'refuse';
      try {
        expect((await w.deliver(late)).status).toBe(503);
      } finally {
        w.stripe.mode = 'ok';
      }
      expect(w.stripe.subscriptions.get(older.subscription.id as string)).toMatchObject({ status: 'active' });
      expect((await w.deliver(late)).status).toBe(200);
      expect(cancels().slice(before).map((r) => r.path)).toEqual([`/v1/subscriptions/${older.subscription.id as string}`]);
      expect(w.stripe.subscriptions.get(older.subscription.id as string)).toMatchObject({ status: 'canceled' });
      expect((await w.env.prisma.stripeEvent.findUnique({ where: { id: late.id } }))?.outcome).toBe('ignored');
      expect(await subscriptionOf(org)).toBe(newer.subscription.id);
      expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active' });
    });


    it('the cancel runs after the commit: while Stripe is slow to answer it, the newest plan is applied and nothing is locked', async () => {
      const org = await seedOrganization(w.env, { name: 'Slow Stripe Co' });
      const id = org.organization.id;
      const t = now();
      const { older, newer } = await olderApplied(org, t);
      // The DELETE is held until `release`; `atCancel` says it arrived.
      const gate = { reached: (): void => undefined, release: (): void => undefined };
      const atCancel = new Promise<void>((r) => (gate.reached = r));
      w.stripe.intercept = (method) => {
        if (method !== 'DELETE') return undefined;
        gate.reached();
        return new Promise<void>((r) => (gate.release = r));
      };
      try {
        const answer = w.deliver(stripeEvent('customer.subscription.created', newer.subscription, { created: t + 5 }));
        await atCancel;
        expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active' });
        // No transaction holds the organization's rows while Stripe has not answered.
        await w.env.prisma.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT 1 FROM billing_accounts WHERE organization_id = ${id}::uuid FOR UPDATE NOWAIT`;
          await tx.$queryRaw`SELECT 1 FROM organizations WHERE id = ${id}::uuid FOR UPDATE NOWAIT`;
        });
        gate.release();
        expect(await answer).toEqual({ status: 200, body: { received: true } });
      } finally {
        w.stripe.intercept = null;
        gate.release();
      }
      expect(w.stripe.subscriptions.get(older.subscription.id as string)).toMatchObject({ status: 'canceled' });
    });

    it("Stripe failing the cancel → 503 with the newest plan already applied; Stripe's redelivery cancels the older one and applies nothing twice", async () => {
      const org = await seedOrganization(w.env, { name: 'Cancel Fails Co' });
      const where = { organizationId: org.organization.id };
      const t = now();
      const { older, newer } = await olderApplied(org, t);
      const olderId = older.subscription.id as string;
      const event = stripeEvent('customer.subscription.created', newer.subscription, { created: t + 5 });
      const marked = () => w.env.prisma.stripeEvent.findUnique({ where: { id: event.id }, select: { outcome: true, cancelSubscriptionId: true } });
      w.stripe.intercept = (method) => (method === 'DELETE' ? 'refuse' : undefined);
      try {
        expect(await w.deliver(event)).toEqual({
          status: 503,
          body: { error: 'Service Unavailable', message: 'Billing is temporarily unavailable, please retry later', statusCode: 503, retryAfter: 30 },
        });
      } finally {
        w.stripe.intercept = null;
      }
      expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active' });
      expect(await marked()).toEqual({ outcome: 'applied', cancelSubscriptionId: olderId });
      expect(w.stripe.subscriptions.get(olderId)).toMatchObject({ status: 'active' });
      const account = await w.env.prisma.billingAccount.findUniqueOrThrow({ where });

      const before = cancels().length;
      expect(await w.deliver(event)).toEqual({ status: 200, body: { received: true } });
      expect(cancels().slice(before).map((r) => [r.path, r.params])).toEqual([[`/v1/subscriptions/${olderId}`, { prorate: 'true', invoice_now: 'true' }]]);
      expect(w.stripe.subscriptions.get(olderId)).toMatchObject({ status: 'canceled' });
      expect(await marked()).toEqual({ outcome: 'applied', cancelSubscriptionId: null });
      expect(await w.env.prisma.billingAccount.findUniqueOrThrow({ where })).toEqual(account);
      expect((await w.deliver(event)).status).toBe(200);
      expect(cancels()).toHaveLength(before + 1);
    });

    it('two copies of the event at once: both read the older one live and send the cancel; Stripe cancels once, the later cancel is answered missing and both copies answer 200', async () => {
      const org = await seedOrganization(w.env, { name: 'Twin Events Co' });
      const t = now();
      const { older, newer } = await olderApplied(org, t);
      const olderId = older.subscription.id as string;
      const event = stripeEvent('customer.subscription.created', newer.subscription, { created: t + 5 });
      // The first copy's DELETE is held until the second copy's has canceled the subscription.
      const gate = { reached: (): void => undefined, release: (): void => undefined };
      const atFirstCancel = new Promise<void>((r) => (gate.reached = r));
      let deletes = 0;
      w.stripe.intercept = (method) => {
        if (method !== 'DELETE' || ++deletes > 1) return undefined;
        gate.reached();
        return new Promise<void>((r) => (gate.release = r));
      };
      const before = cancels().length;
      try {
        const first = w.deliver(event);
        await atFirstCancel;
        expect(await w.deliver(event)).toEqual({ status: 200, body: { received: true } });
        expect(w.stripe.subscriptions.get(olderId)).toMatchObject({ status: 'canceled' });
        gate.release();
        expect(await first).toEqual({ status: 200, body: { received: true } });
      } finally {
        w.stripe.intercept = null;
        gate.release();
      }
      expect(cancels().slice(before).map((r) => r.path)).toEqual([`/v1/subscriptions/${olderId}`, `/v1/subscriptions/${olderId}`]);
      expect((await w.env.prisma.stripeEvent.findUnique({ where: { id: event.id } }))?.cancelSubscriptionId).toBeNull();
      expect(await billing(w, org)).toMatchObject({ tier: 'BUSINESS', status: 'active' });
      expect(await subscriptionOf(org)).toBe(newer.subscription.id);
    });
  });

  it('an event for an unknown customer is acknowledged and changes nothing', async () => {
    const event = stripeEvent('customer.subscription.created', {
      id: 'sub_unknown', object: 'subscription', customer: 'cus_nobody', status: 'active', cancel_at_period_end: false, metadata: {},
      items: { object: 'list', data: [{ current_period_end: now() + 1000, price: { id: 'price_pro_month' } }] },
    });
    expect((await w.deliver(event)).status).toBe(200);
    expect((await w.env.prisma.stripeEvent.findUnique({ where: { id: event.id } }))?.outcome).toBe('unknown-customer');
    const invoice = stripeEvent('invoice.payment_failed', { id: 'in_x', object: 'invoice', customer: 'cus_nobody', parent: null });
    expect((await w.deliver(invoice)).status).toBe(200);
    expect(await w.env.prisma.billingAccount.count({ where: { stripeCustomerId: 'cus_nobody' } })).toBe(0);
  });

});
