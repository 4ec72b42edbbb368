import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import {
  addMember,
  authHeader,
  ClickFixtures,
  createTestEnv,
  RunningApp,
  seedOrganization,
  SeededOrganization,
  signStripePayload,
  startApp,
  stripeEvent,
  StripeTestEvent,
  TestEnv,
} from '@dl/testing';

const STRIPE_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const SHOPIFY_SECRET = randomBytes(32).toString('hex');

describe('Stripe and Shopify integrations (decisions §23)', () => {
  let env: TestEnv;
  let api: RunningApp;
  let org: SeededOrganization;
  let other: SeededOrganization;
  let fixtures: ClickFixtures;
  let link: { id: string; shortCode: string };
  let stripeUrl: string;
  let shopifyUrl: string;

  const put = (provider: string, key: string, body: object) => request(api.url).put(`/api/integrations/${provider}`).set(authHeader(key)).send(body);
  const click = async (o = org, l = link) => (await fixtures.click({ id: l.id, organizationId: o.organization.id })).id;
  const path = (url: string) => new URL(url).pathname;

  /** Posts the event as Stripe does: pretty-printed JSON, signed over the exact bytes. */
  const sendStripe = (event: StripeTestEvent, signature?: string | null) => {
    const payload = JSON.stringify(event, null, 2);
    const req = request(api.url).post(path(stripeUrl)).set('content-type', 'application/json; charset=utf-8');
    const sig = signature === undefined ? signStripePayload(payload, STRIPE_SECRET) : signature;
    return (sig === null ? req : req.set('stripe-signature', sig)).send(payload);
  };
  /** Posts as Shopify does: `X-Shopify-Hmac-Sha256` = base64 HMAC-SHA256 of the body with the app's secret. */
  const sendShopify = (topic: string, body: object, opts: { id?: string; hmac?: string | null } = {}) => {
    const payload = JSON.stringify(body);
    const hmac = opts.hmac === undefined ? createHmac('sha256', SHOPIFY_SECRET).update(payload).digest('base64') : opts.hmac;
    return request(api.url)
      .post(path(shopifyUrl))
      .set({
        'content-type': 'application/json',
        'x-shopify-topic': topic,
        'x-shopify-shop-domain': 'acme.myshopify.com',
        'x-shopify-webhook-id': opts.id ?? randomUUID(),
        ...(hmac === null ? {} : { 'x-shopify-hmac-sha256': hmac }),
      })
      .send(payload);
  };
  const salesOf = (invoiceId: string) => env.prisma.sale.findMany({ where: { organizationId: org.organization.id, invoiceId } });

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', API_PUBLIC_URL: 'https://api.example.test/' });
    api = await startApp(createApiApp, env.config);
    [org, other] = await Promise.all([seedOrganization(env, { tier: 'PRO' }), seedOrganization(env, { tier: 'PRO' })]);
    fixtures = new ClickFixtures(env.prisma)
      .useOwner(org.organization.id, org.owner.user.id, org.template.id)
      .useOwner(other.organization.id, other.owner.user.id, other.template.id);
    link = await fixtures.link(org.organization.id);
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
  });

  describe('settings', () => {
    it('PUT answers the endpoint URL (kept across updates); members and FREE organizations are refused', async () => {
      const first = await put('stripe', org.owner.jwt, { webhookSecret: 'whsec_old_secret_123' }).expect(200);
      expect(first.body).toEqual({
        provider: 'stripe',
        endpointUrl: expect.stringMatching(/^https:\/\/api\.example\.test\/integrations\/stripe\/[0-9a-f]{64}$/),
        shopDomain: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const updated = await put('stripe', org.owner.apiKey, { webhookSecret: STRIPE_SECRET }).expect(200);
      expect(updated.body.endpointUrl).toBe(first.body.endpointUrl);
      stripeUrl = updated.body.endpointUrl;
      shopifyUrl = (await put('shopify', org.owner.jwt, { shopDomain: 'Acme.myshopify.com', webhookSecret: SHOPIFY_SECRET }).expect(200)).body.endpointUrl;
      const listed = await request(api.url).get('/api/integrations').set(authHeader(org.owner.jwt)).expect(200);
      expect(listed.body.integrations.map((i: { provider: string; shopDomain: string | null }) => [i.provider, i.shopDomain])).toEqual([
        ['stripe', null],
        ['shopify', 'acme.myshopify.com'],
      ]);

      const bad = await put('stripe', org.owner.jwt, { webhookSecret: 'nope' }).expect(400);
      expect(bad.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { webhookSecret: 'Must be a Stripe webhook signing secret (whsec_…)' } });
      const member = await addMember(env, org.organization.id, 'MEMBER');
      await put('stripe', member.apiKey, { webhookSecret: STRIPE_SECRET }).expect(403);
      const free = await seedOrganization(env);
      const refused = await put('stripe', free.owner.jwt, { webhookSecret: STRIPE_SECRET }).expect(403);
      expect(refused.body).toEqual({ error: 'Forbidden', message: 'Conversions require a paid plan', statusCode: 403 });
    });
  });

  describe('Stripe', () => {
    it('a Checkout session with dl_click_id makes the lead and the sale on the click’s link; a replay changes nothing', async () => {
      const clickId = await click();
      const event = stripeEvent('checkout.session.completed', {
        id: 'cs_test_1',
        object: 'checkout.session',
        client_reference_id: 'user_7',
        customer: 'cus_7',
        customer_details: { name: 'Grace', email: 'grace@example.com' },
        amount_total: 4900,
        currency: 'usd',
        mode: 'subscription',
        payment_status: 'paid',
        invoice: 'in_first',
        payment_intent: null,
        metadata: { dl_click_id: clickId },
      });
      expect((await sendStripe(event).expect(200)).body).toEqual({ received: true, applied: true });
      expect((await sendStripe(event).expect(200)).body).toEqual({ received: true, applied: false });

      const customer = await env.prisma.customer.findFirstOrThrow({ where: { organizationId: org.organization.id, externalId: 'user_7' } });
      expect(customer).toMatchObject({ linkId: link.id, clickId, name: 'Grace', email: 'grace@example.com', stripeCustomerId: 'cus_7' });
      expect(await env.prisma.lead.count({ where: { customerId: customer.id } })).toBe(1);
      const [sale] = await salesOf('in_first');
      expect(sale).toMatchObject({ linkId: link.id, customerId: customer.id, amount: 4900n, currency: 'USD', source: 'stripe', paymentProcessor: 'stripe' });

      // The subscription's first invoice is the checkout's sale; the next one is a new sale of the same customer.
      await sendStripe(stripeEvent('invoice.paid', { id: 'in_first', object: 'invoice', customer: 'cus_7', amount_paid: 4900, currency: 'usd' })).expect(200);
      await sendStripe(stripeEvent('invoice.paid', { id: 'in_second', object: 'invoice', customer: 'cus_7', amount_paid: 4900, currency: 'usd' })).expect(200);
      expect(await env.prisma.sale.count({ where: { customerId: customer.id } })).toBe(2);
      expect((await salesOf('in_second'))[0]).toMatchObject({ linkId: link.id, amount: 4900n });
    });

    it('charge.refunded nets the sale by the refunded total, once per total', async () => {
      const clickId = await click();
      await sendStripe(
        stripeEvent('checkout.session.completed', {
          id: 'cs_test_2',
          client_reference_id: 'user_8',
          amount_total: 10000,
          currency: 'eur',
          mode: 'payment',
          payment_status: 'paid',
          invoice: null,
          payment_intent: 'pi_8',
          metadata: { dl_click_id: clickId },
        }),
      ).expect(200);
      const refund = (total: number) => stripeEvent('charge.refunded', { id: 'ch_8', object: 'charge', payment_intent: 'pi_8', amount_refunded: total, currency: 'eur' });
      await sendStripe(refund(2500)).expect(200);
      await sendStripe(refund(2500)).expect(200); // another delivery (new event id) of the same total
      expect((await salesOf('pi_8'))[0].refunded).toBe(2500n);
      await sendStripe(refund(10000)).expect(200);
      expect((await salesOf('pi_8'))[0].refunded).toBe(10000n);
      expect(await env.prisma.refund.count({ where: { organizationId: org.organization.id } })).toBe(2);
    });

    it('a missing or wrong Stripe-Signature is 400 Invalid signature; an unknown endpoint is 404', async () => {
      const event = stripeEvent('checkout.session.completed', { id: 'cs_bad' });
      const expected = { error: 'Bad Request', message: 'Invalid signature', statusCode: 400 };
      expect((await sendStripe(event, null).expect(400)).body).toEqual(expected);
      expect((await sendStripe(event, signStripePayload('{}', STRIPE_SECRET)).expect(400)).body).toEqual(expected);
      expect((await sendStripe(event, signStripePayload(JSON.stringify(event, null, 2), 'whsec_wrong_secret')).expect(400)).body).toEqual(expected);
      const unknown = await request(api.url).post(`/integrations/stripe/${'0'.repeat(64)}`).send({}).expect(404);
      expect(unknown.body).toEqual({ error: 'Not Found', message: 'Integration not found', statusCode: 404 });
    });

    it('without client_reference_id the customer is metadata.dl_customer_id', async () => {
      const clickId = await click();
      const event = stripeEvent('checkout.session.completed', {
        id: 'cs_meta', amount_total: 1500, currency: 'gbp', mode: 'payment', payment_status: 'paid', payment_intent: 'pi_meta',
        metadata: { dl_click_id: clickId, dl_customer_id: 'user_meta' },
      });
      expect((await sendStripe(event).expect(200)).body).toEqual({ received: true, applied: true });
      const customer = await env.prisma.customer.findFirstOrThrow({ where: { organizationId: org.organization.id, externalId: 'user_meta' } });
      expect(customer).toMatchObject({ linkId: link.id, clickId });
      expect((await salesOf('pi_meta'))[0]).toMatchObject({ customerId: customer.id, linkId: link.id, amount: 1500n, currency: 'GBP' });
    });

    it('a click of another organization in dl_click_id makes no customer', async () => {
      const foreign = await click(other, await fixtures.link(other.organization.id));
      const event = stripeEvent('checkout.session.completed', {
        id: 'cs_foreign', client_reference_id: 'thief', amount_total: 100, currency: 'usd', payment_status: 'paid', metadata: { dl_click_id: foreign },
      });
      expect((await sendStripe(event).expect(200)).body).toEqual({ received: true, applied: false });
      expect(await env.prisma.customer.count({ where: { externalId: 'thief' } })).toBe(0);
    });
  });

  describe('Shopify', () => {
    it('an order whose landing site carries dl_click makes the customer, lead and sale on the link; a replay changes nothing', async () => {
      const clickId = await click();
      const order = {
        id: 820982911946154500,
        email: 'ada@example.com',
        total_price: '49.90',
        currency: 'USD',
        landing_site: `/products/mug?utm_source=x&dl_click=${clickId}`,
        processed_at: new Date().toISOString(),
        customer: { id: 115310627314723950, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
      };
      const webhookId = randomUUID();
      expect((await sendShopify('orders/paid', order, { id: webhookId }).expect(200)).body).toEqual({ received: true, applied: true });
      expect((await sendShopify('orders/paid', order, { id: webhookId }).expect(200)).body).toEqual({ received: true, applied: false });
      const customer = await env.prisma.customer.findFirstOrThrow({ where: { organizationId: org.organization.id, externalId: '115310627314723950' } });
      expect(customer).toMatchObject({ linkId: link.id, clickId, name: 'Ada Lovelace' });
      const [sale] = await salesOf('shopify_order_820982911946154500');
      expect(sale).toMatchObject({ linkId: link.id, amount: 4990n, currency: 'USD', source: 'shopify' });

      await sendShopify('refunds/create', {
        id: 929361462,
        order_id: 820982911946154500,
        transactions: [{ kind: 'refund', status: 'success', amount: '10.00', currency: 'USD' }],
      }).expect(200);
      expect((await salesOf('shopify_order_820982911946154500'))[0].refunded).toBe(1000n);
    });

    it('a note attribute dl_click works too; a wrong or missing HMAC is 401 Invalid signature and stores nothing', async () => {
      const clickId = await click();
      const order = { id: 5001, total_price: '12', currency: 'JPY', note_attributes: [{ name: 'dl_click', value: clickId }], customer: { id: 77 } };
      for (const hmac of [createHmac('sha256', 'other').update('x').digest('base64'), null]) {
        const wrong = await sendShopify('orders/paid', order, { hmac }).expect(401);
        expect(wrong.body).toEqual({ error: 'Unauthorized', message: 'Invalid signature', statusCode: 401 });
      }
      expect(await salesOf('shopify_order_5001')).toEqual([]);
      await sendShopify('orders/paid', order).expect(200);
      expect((await salesOf('shopify_order_5001'))[0]).toMatchObject({ amount: 12n, currency: 'JPY', linkId: link.id });
    });

    it('DELETE turns the integration off: its endpoint answers 404', async () => {
      await request(api.url).delete('/api/integrations/shopify').set(authHeader(org.owner.jwt)).expect(200, { success: true });
      await sendShopify('orders/paid', { id: 1 }).expect(404);
      await request(api.url).delete('/api/integrations/shopify').set(authHeader(org.owner.jwt)).expect(404);
    });
  });
});
