import { createPrivatePostgresEnv, deliverStripeEvent, PrivatePostgresEnv, RunningApp, seedOrganization, startApp, startStripeServer, stripeEvent, stripeTestPrices, StripeTestServer, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';
import { PRICES, WEBHOOK_SECRET } from './test/billing-world';

describe('Stripe webhook while Postgres is down', () => {
  let env: PrivatePostgresEnv;
  let stripe: StripeTestServer;
  let api: RunningApp;
  beforeAll(async () => {
    stripe = await startStripeServer(stripeTestPrices(PRICES));
    env = await createPrivatePostgresEnv({
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICES: JSON.stringify(PRICES),
      STRIPE_API_BASE: stripe.url,
    });
    api = await startApp(createApiApp, env.config);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await stripe?.close();
    await env?.teardown();
  });

  it('answers 5xx (Stripe retries) and applies the event on the retry', async () => {
    // seedOrganization reads only prisma and config of its environment.
    const org = await seedOrganization(env as unknown as TestEnv);
    const res = await fetch(`${api.url}/api/billing/checkout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.owner.jwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tier: 'PRO', interval: 'month' }),
    });
    expect(res.status).toBe(200);
    const session = [...stripe.checkoutSessions.values()].at(-1)!;
    const done = stripe.completeCheckout(session.id as string);
    const event = stripeEvent('customer.subscription.created', done.subscription);

    await env.pg.stop('fast');
    try {
      const down = await deliverStripeEvent(api.url, event, WEBHOOK_SECRET);
      expect(down.status).toBeGreaterThanOrEqual(500);
    } finally {
      await env.pg.start();
    }
    let retry = await deliverStripeEvent(api.url, event, WEBHOOK_SECRET);
    for (let i = 0; retry.status !== 200 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200));
      retry = await deliverStripeEvent(api.url, event, WEBHOOK_SECRET);
    }
    expect(retry).toEqual({ status: 200, body: { received: true } });
    expect(await env.prisma.organization.findUnique({ where: { id: org.organization.id }, select: { tier: true } })).toEqual({ tier: 'PRO' });
    expect(await env.prisma.stripeEvent.findUnique({ where: { id: event.id }, select: { outcome: true } })).toEqual({ outcome: 'applied' });
  }, 90_000);
});
