import { addMember, createTestEnv, RunningApp, seedOrganization, startApp, stripeEvent, useSuite } from '@dl/testing';
import { createApiApp } from '../app';
import { billingWorld, PRICES } from './test/billing-world';

const notFound = (message: string) => ({ error: 'Not Found', message, statusCode: 404 });
const FREE_LIMITS = { links: 1000, apiKeys: 1, clicksPerMonth: 5000, requestsPerMinute: 10, rawClickRetentionDays: 30, eventAnalytics: false, domains: 1 };

describe('billing routes: /api/billing*', () => {
  const w = useSuite(async (own) => own(await billingWorld()));

  it('GET /api/billing: an organization that never subscribed, and the plans on sale', async () => {
    const org = await seedOrganization(w.env);
    const res = await w.call('GET', '/api/billing', org.owner.jwt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      tier: 'FREE',
      status: 'none',
      interval: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      plans: [
        { tier: 'FREE', month: { amount: 0, currency: 'usd' }, year: { amount: 0, currency: 'usd' }, limits: FREE_LIMITS },
        { tier: 'PRO', month: { amount: 1900, currency: 'usd' }, year: { amount: 19000, currency: 'usd' }, limits: expect.objectContaining({ links: 25000, requestsPerMinute: 60 }) },
        { tier: 'BUSINESS', month: { amount: 9900, currency: 'usd' }, year: { amount: 99000, currency: 'usd' }, limits: expect.objectContaining({ links: 100000, requestsPerMinute: 200 }) },
      ],
    });
    const viewer = await addMember(w.env, org.organization.id, 'VIEWER');
    expect((await w.call('GET', '/api/billing', viewer.jwt)).status).toBe(200);
    expect((await w.call('GET', '/api/billing/invoices', org.owner.jwt)).body).toEqual({ invoices: [] });
  });

  it('checkout: a Checkout session for the customer, created once and reused', async () => {
    const org = await seedOrganization(w.env, { name: 'Checkout Co' });
    const res = await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'year' });
    expect(res.status).toBe(200);
    const session = [...w.stripe.checkoutSessions.values()].find((s) => s.client_reference_id === org.organization.id)!;
    expect(res.body).toEqual({ url: session.url });
    const sent = w.stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(sent.params).toEqual({
      mode: 'subscription',
      customer: session.customer,
      client_reference_id: org.organization.id,
      line_items: [{ price: PRICES.PRO.year.price, quantity: '1' }],
      success_url: 'http://dash.test/app/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://dash.test/app/billing?checkout=canceled',
      subscription_data: { metadata: { organizationId: org.organization.id } },
      metadata: { organizationId: org.organization.id, tier: 'PRO', interval: 'year' },
    });
    expect(w.stripe.customers.get(session.customer as string)).toMatchObject({ name: 'Checkout Co', email: org.owner.user.email, metadata: { organizationId: org.organization.id } });
    const customers = w.stripe.customers.size;
    await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'BUSINESS', interval: 'month' });
    expect(w.stripe.customers.size).toBe(customers);
    expect(w.stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.params.customer).toBe(session.customer);

    const portal = await w.call('POST', '/api/billing/portal', org.owner.jwt);
    expect(portal.status).toBe(200);
    const made = [...w.stripe.portalSessions.values()].at(-1)!;
    expect(portal.body).toEqual({ url: made.url });
    expect(made).toMatchObject({ customer: session.customer, return_url: 'http://dash.test/app/billing' });
  });

  it('Owner only: Admin and Member get 403 on checkout and portal; Admin reads invoices, Member does not', async () => {
    const org = await seedOrganization(w.env);
    const admin = await addMember(w.env, org.organization.id, 'ADMIN');
    const member = await addMember(w.env, org.organization.id, 'MEMBER');
    const forbidden = { error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 };
    for (const who of [admin, member]) {
      expect(await w.call('POST', '/api/billing/checkout', who.jwt, { tier: 'PRO', interval: 'month' })).toMatchObject({ status: 403, body: forbidden });
      expect(await w.call('POST', '/api/billing/portal', who.jwt)).toMatchObject({ status: 403, body: forbidden });
    }
    expect(await w.call('GET', '/api/billing/invoices', admin.jwt)).toMatchObject({ status: 200, body: { invoices: [] } });
    expect(await w.call('GET', '/api/billing/invoices', member.jwt)).toMatchObject({ status: 403, body: forbidden });
    expect(await w.call('GET', '/api/billing', admin.jwt)).toMatchObject({ status: 200 });
    expect([...w.stripe.checkoutSessions.values()].some((s) => s.client_reference_id === org.organization.id)).toBe(false);
  });

  it('refuses a checkout for the current tier, a tier not sold and a bad body', async () => {
    const pro = await seedOrganization(w.env, { tier: 'PRO' });
    expect(await w.call('POST', '/api/billing/checkout', pro.owner.jwt, { tier: 'PRO', interval: 'year' })).toMatchObject({
      status: 409,
      body: { error: 'Conflict', message: 'Your organization is already on the PRO plan', statusCode: 409 },
    });
    expect(await w.call('POST', '/api/billing/checkout', pro.owner.jwt, { tier: 'UNLIMITED', interval: 'month' })).toMatchObject({
      status: 400,
      body: { error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { tier: 'UNLIMITED is not sold' } },
    });
    const bad = await w.call('POST', '/api/billing/checkout', pro.owner.jwt, { tier: 'FREE', interval: 'week' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'Bad Request', message: 'Validation error', statusCode: 400 });
    expect(Object.keys(bad.body.validation).sort()).toEqual(['interval', 'tier']);
    expect(await w.env.prisma.billingAccount.count({ where: { organizationId: pro.organization.id } })).toBe(0);
  });

  it('the portal before any checkout → 409', async () => {
    const org = await seedOrganization(w.env);
    expect(await w.call('POST', '/api/billing/portal', org.owner.jwt)).toMatchObject({
      status: 409,
      body: { error: 'Conflict', message: 'Your organization has no billing account yet: choose a plan first', statusCode: 409 },
    });
  });

  it('Stripe unreachable → 503 with Retry-After and nothing written; the retry works', async () => {
    const org = await seedOrganization(w.env);
    w.stripe.mode = 'refuse';
    let res;
    try {
      res = await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' });
    } finally {
      w.stripe.mode = 'ok';
    }
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(res.body).toEqual({ error: 'Service Unavailable', message: 'Billing is temporarily unavailable, please retry later', statusCode: 503, retryAfter: 30 });
    expect(await w.env.prisma.billingAccount.count({ where: { organizationId: org.organization.id } })).toBe(0);
    expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' })).status).toBe(200);
    expect(await w.env.prisma.billingAccount.count({ where: { organizationId: org.organization.id } })).toBe(1);
  });

  it('Stripe made the customer but not the session → 503 and nothing written; the retry reuses that customer', async () => {
    const org = await seedOrganization(w.env, { name: 'Half Way Co' });
    const where = { organizationId: org.organization.id };
    const ofOrg = () => [...w.stripe.customers.values()].filter((c) => (c.metadata as { organizationId?: string }).organizationId === org.organization.id);
    w.stripe.intercept = (method, path) => (path === '/v1/checkout/sessions' ? 'refuse' : undefined);
    try {
      const res = await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' });
      expect({ status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '30' });
    } finally {
      w.stripe.intercept = null;
    }
    expect(await w.env.prisma.billingAccount.count({ where })).toBe(0);
    const [customer] = ofOrg();
    expect((await w.call('POST', '/api/billing/checkout', org.owner.jwt, { tier: 'PRO', interval: 'month' })).status).toBe(200);
    expect(ofOrg()).toEqual([customer]);
    expect(await w.env.prisma.billingAccount.findUnique({ where, select: { stripeCustomerId: true } })).toEqual({ stripeCustomerId: customer.id });
  });
});

describe('billing off (no Stripe keys)', () => {
  it('every billing route answers 404 Billing is not enabled', async () => {
    const env = await createTestEnv();
    let api: RunningApp | undefined;
    try {
      api = await startApp(createApiApp, env.config);
      const org = await seedOrganization(env);
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`${api!.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${org.owner.jwt}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: await res.json() };
      };
      for (const [method, path, body] of [
        ['GET', '/api/billing'],
        ['POST', '/api/billing/checkout', { tier: 'PRO', interval: 'month' }],
        ['POST', '/api/billing/portal', {}],
        ['GET', '/api/billing/invoices'],
        ['POST', '/billing/stripe/webhook', stripeEvent('invoice.paid', { id: 'in_1' })],
      ] as Array<[string, string, unknown?]>) {
        expect({ path, ...(await call(method, path, body)) }).toEqual({ path, status: 404, body: notFound('Billing is not enabled') });
      }
    } finally {
      await api?.close();
      await env.teardown();
    }
  });
});
