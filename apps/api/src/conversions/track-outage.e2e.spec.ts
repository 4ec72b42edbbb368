import { createHmac } from 'node:crypto';
import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { ClickFixtures, createPrivatePostgresEnv, PrivatePostgresEnv, RunningApp, signStripePayload, startApp, stripeEvent } from '@dl/testing';
import { createApiApp } from '../app';

/** A sale, a lead or a Stripe or Shopify event sent while Postgres is down answers 503 so the sender retries; the retry stores it once. */
describe('Tracking API: Postgres outage', () => {
  let env: PrivatePostgresEnv;
  let server: RunningApp;

  beforeAll(async () => {
    env = await createPrivatePostgresEnv({ RATE_LIMIT_ENABLED: 'false' });
    server = await startApp(createApiApp, env.config);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await env?.teardown();
  });

  it('503 + Retry-After while Postgres is down; the retried sale is stored once', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const { key } = await fx.apiKey(org.id);
    const link = await fx.link(org.id);
    const click = await fx.click({ id: link.id, organizationId: org.id });
    const post = (path: string, body: object) => request(server.url).post(`/api/track/${path}`).set('Authorization', `Bearer ${key}`).send(body);
    await post('lead', { clickId: click.id, eventName: 'Sign up', customerExternalId: 'c1' }).expect(201);
    const sale = { customerExternalId: 'c1', amount: 1200, currency: 'USD', invoiceId: 'inv_outage' };
    const secret = 'whsec_outage_secret_1';
    const { endpointUrl } = (await request(server.url).put('/api/integrations/stripe').set('Authorization', `Bearer ${key}`).send({ webhookSecret: secret }).expect(200)).body;
    const payload = JSON.stringify(
      stripeEvent('invoice.paid', { id: 'in_outage', object: 'invoice', amount_paid: 500, currency: 'usd', metadata: { dl_customer_id: 'c1' } }),
    );
    const stripe = () =>
      request(server.url).post(new URL(endpointUrl).pathname).set({ 'content-type': 'application/json', 'stripe-signature': signStripePayload(payload, secret) }).send(payload);
    const shopifySecret = 'shpss_outage_secret';
    const shopifyUrl = (await request(server.url).put('/api/integrations/shopify').set('Authorization', `Bearer ${key}`).send({ shopDomain: 'outage.myshopify.com', webhookSecret: shopifySecret }).expect(200)).body.endpointUrl;
    const order = JSON.stringify({ id: 9001, total_price: '25.00', currency: 'EUR', customer: { id: 4242 }, note_attributes: [{ name: 'dl_click', value: click.id }] });
    const shopify = () =>
      request(server.url)
        .post(new URL(shopifyUrl).pathname)
        .set({
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/paid',
          'x-shopify-webhook-id': 'wh_outage_1',
          'x-shopify-hmac-sha256': createHmac('sha256', shopifySecret).update(order).digest('base64'),
        })
        .send(order);

    await env.pg.stop('fast');
    try {
      for (const res of [await post('sale', sale), await post('lead', { clickId: click.id, eventName: 'Trial', customerExternalId: 'c1' }), await stripe(), await shopify()]) {
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toEqual({ error: 'Service Unavailable', message: 'Service temporarily unavailable, please retry', statusCode: 503, retryAfter: 5 });
      }
    } finally {
      await env.pg.start();
    }
    await post('sale', sale).expect(201);
    await post('sale', sale).expect(200);
    expect((await stripe().expect(200)).body).toEqual({ received: true, applied: true });
    expect((await stripe().expect(200)).body).toEqual({ received: true, applied: false });
    expect((await shopify().expect(200)).body).toEqual({ received: true, applied: true });
    expect((await shopify().expect(200)).body).toEqual({ received: true, applied: false });
    expect(await env.prisma.sale.count({ where: { organizationId: org.id } })).toBe(3);
  }, 120_000);
});
