import Stripe from 'stripe';
import { signStripePayload, stripeEvent } from './stripe-events';
import { decodeStripeForm, startStripeServer, StripeTestServer } from './stripe-server';

const PRICES = { price_pro_m: { unit_amount: 1900, currency: 'usd', interval: 'month' as const }, price_pro_y: { unit_amount: 19000, currency: 'usd', interval: 'year' as const } };

describe('Stripe test server', () => {
  let server: StripeTestServer;
  let stripe: Stripe;

  beforeAll(async () => {
    server = await startStripeServer(PRICES);
    const u = new URL(server.url);
    stripe = new Stripe(server.secretKey, { host: u.hostname, port: Number(u.port), protocol: 'http', maxNetworkRetries: 0, timeout: 2000 });
  });
  afterAll(() => server.close());

  it('decodes Stripe bracket notation', () => {
    expect(decodeStripeForm('a[b][0][c]=x&a[b][0][d]=y&a[b][1][c]=z&k=v&m[o]=1')).toEqual({ a: { b: [{ c: 'x', d: 'y' }, { c: 'z' }] }, k: 'v', m: { o: '1' } });
  });

  it('serves customers, checkout and portal sessions, invoices through the official client', async () => {
    const customer = await stripe.customers.create({ email: 'o@example.com', name: 'Acme', metadata: { organizationId: 'org-1' } });
    expect(customer).toMatchObject({ object: 'customer', email: 'o@example.com', metadata: { organizationId: 'org-1' } });
    expect(customer.id).toMatch(/^cus_/);

    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: 'org-1',
      line_items: [{ price: 'price_pro_m', quantity: 1 }],
      success_url: 'http://d/ok',
      cancel_url: 'http://d/no',
    });
    expect(session).toMatchObject({ object: 'checkout.session', mode: 'subscription', status: 'open', customer: customer.id, client_reference_id: 'org-1', subscription: null });
    expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.id}`);
    expect(server.requests.at(-1)?.params).toMatchObject({ line_items: [{ price: 'price_pro_m', quantity: '1' }] });

    const done = server.completeCheckout(session.id);
    expect(done.session).toMatchObject({ status: 'complete', subscription: done.subscription.id });
    expect(done.subscription).toMatchObject({ object: 'subscription', status: 'active', customer: customer.id });

    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://d/billing' });
    expect(portal).toMatchObject({ object: 'billing_portal.session', customer: customer.id, return_url: 'http://d/billing' });

    server.addInvoice(done.subscription.id as string, { status: 'open', now: Math.floor(Date.now() / 1000) + 10 });
    const invoices = await stripe.invoices.list({ customer: customer.id, limit: 1 });
    expect(invoices.data).toHaveLength(1);
    expect(invoices.has_more).toBe(true);
    expect(invoices.data[0]).toMatchObject({ object: 'invoice', status: 'open', customer: customer.id });
    const second = await stripe.invoices.list({ customer: customer.id, limit: 10, starting_after: invoices.data[0].id });
    expect(second.data.map((i) => i.status)).toEqual(['paid']);
  });

  it("bills the price's amount and period: a yearly subscription's first invoice is the year's price", async () => {
    const customer = await stripe.customers.create({});
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price: 'price_pro_y', quantity: 1 }], success_url: 'http://d/ok' });
    const { subscription, invoice } = server.completeCheckout(session.id, { now: Date.UTC(2026, 1, 28) / 1000 });
    const item = (subscription.items as { data: Array<Record<string, any>> }).data[0];
    expect([item.price.unit_amount, item.price.recurring.interval, new Date(item.current_period_end * 1000).toISOString()]).toEqual([19000, 'year', '2027-02-28T00:00:00.000Z']);
    expect(invoice).toMatchObject({ amount_due: 19000, amount_paid: 19000, currency: 'usd', billing_reason: 'subscription_create' });
    expect(server.addInvoice(subscription.id as string, { status: 'open' })).toMatchObject({ amount_due: 19000, billing_reason: 'subscription_cycle' });
  });

  it('refuses a Checkout session of a price it does not know, as Stripe does', async () => {
    await expect(
      stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: 'price_nope', quantity: 1 }], success_url: 'http://d/ok' }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, code: 'resource_missing', param: 'line_items[0][price]', message: "No such price: 'price_nope'" });
  });

  it('answers Stripe errors that the client raises as typed errors', async () => {
    await expect(stripe.billingPortal.sessions.create({ customer: 'cus_missing' })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'resource_missing',
      param: 'customer',
      message: "No such customer: 'cus_missing'",
    });
    const u = new URL(server.url);
    const wrongKey = new Stripe('sk_test_wrong', { host: u.hostname, port: Number(u.port), protocol: 'http', maxNetworkRetries: 0 });
    await expect(wrongKey.customers.create({})).rejects.toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
  });

  it('replays a request with the same Idempotency-Key', async () => {
    const a = await stripe.customers.create({ email: 'x@example.com' }, { idempotencyKey: 'k-1' });
    const b = await stripe.customers.create({ email: 'x@example.com' }, { idempotencyKey: 'k-1' });
    expect(b.id).toBe(a.id);
  });

  it('can be unreachable', async () => {
    server.mode = 'refuse';
    try {
      await expect(stripe.customers.create({})).rejects.toMatchObject({ type: 'StripeConnectionError' });
    } finally {
      server.mode = 'ok';
    }
  });

  it('refuses or holds the requests `intercept` picks, answering the others', async () => {
    const customer = await stripe.customers.create({});
    let release!: () => void;
    server.intercept = (method, path) => (method === 'POST' && path === '/v1/customers' ? 'refuse' : path === '/v1/invoices' ? new Promise<void>((r) => (release = r)) : undefined);
    try {
      await expect(stripe.customers.create({})).rejects.toMatchObject({ type: 'StripeConnectionError' });
      let answered = false;
      const held = stripe.invoices.list({ limit: 1 }).then((list) => {
        answered = true;
        return list;
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(answered).toBe(false);
      expect((await stripe.billingPortal.sessions.create({ customer: customer.id })).object).toBe('billing_portal.session');
      release();
      expect((await held).object).toBe('list');
    } finally {
      server.intercept = null;
    }
  });

  it('signs events exactly as Stripe does: the official check accepts them, and rejects tampering', () => {
    const secret = 'whsec_test_secret_0123456789';
    const payload = JSON.stringify(stripeEvent('invoice.paid', { id: 'in_1', object: 'invoice' }));
    const t = Math.floor(Date.now() / 1000);
    const header = signStripePayload(payload, secret, t);
    expect(header).toBe(stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: t }));
    expect(stripe.webhooks.constructEvent(payload, header, secret).type).toBe('invoice.paid');
    expect(() => stripe.webhooks.constructEvent(`${payload} `, header, secret)).toThrow(/No signatures found matching/);
    expect(() => stripe.webhooks.constructEvent(payload, signStripePayload(payload, secret, t - 301), secret, 300)).toThrow(/outside the tolerance zone/);
  });
});
