import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { addMember, authHeader, ClickFixtures, createTestEnv, RunningApp, seedOrganization, SeededOrganization, startApp, TestEnv } from '@dl/testing';

const HOUR = 3_600_000;

describe('Tracking API: /api/track/lead, /sale, /refund (decisions §23)', () => {
  let env: TestEnv;
  let api: RunningApp;
  let org: SeededOrganization;
  let other: SeededOrganization;
  let free: SeededOrganization;
  let fixtures: ClickFixtures;
  let link: { id: string; shortCode: string };
  let member: string;
  let viewer: string;

  const post = (path: string, key: string, body: object) => request(api.url).post(`/api/track/${path}`).set(authHeader(key)).send(body);
  const click = async (o: SeededOrganization, at = new Date(), l = link) =>
    (await fixtures.click({ id: l.id, organizationId: o.organization.id }, { clickedAt: at })).id;
  const lead = async (externalId: string, clickId?: string) =>
    post('lead', org.owner.apiKey, { clickId: clickId ?? (await click(org)), eventName: 'Sign up', customerExternalId: externalId }).expect(201);
  const validation = (field: string, message: string) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { [field]: message } });

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    api = await startApp(createApiApp, env.config);
    [org, other, free] = await Promise.all([
      seedOrganization(env, { tier: 'PRO' }),
      seedOrganization(env, { tier: 'BUSINESS' }),
      seedOrganization(env),
    ]);
    fixtures = new ClickFixtures(env.prisma)
      .useOwner(org.organization.id, org.owner.user.id, org.template.id)
      .useOwner(other.organization.id, other.owner.user.id, other.template.id);
    link = await fixtures.link(org.organization.id);
    member = (await addMember(env, org.organization.id, 'MEMBER')).apiKey;
    viewer = (await addMember(env, org.organization.id, 'VIEWER')).apiKey;
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
  });

  describe('lead', () => {
    it('creates the customer attributed to the click, 201; the same customer and event again is 200 with that lead', async () => {
      const clickId = await click(org);
      const body = { clickId, eventName: 'Sign up', customerExternalId: 'user_42', customerName: 'Ada', customerEmail: 'ada@example.com', metadata: { plan: 'pro' } };
      const first = await post('lead', member, body).expect(201);
      expect(first.body).toEqual({
        customer: { id: expect.any(String), externalId: 'user_42', linkId: link.id, clickId },
        lead: { id: expect.any(String), eventName: 'Sign up', createdAt: expect.any(String) },
      });
      const again = await post('lead', member, body).expect(200);
      expect(again.body).toEqual(first.body);
      const customers = await env.prisma.customer.findMany({ where: { organizationId: org.organization.id, externalId: 'user_42' } });
      expect(customers).toHaveLength(1);
      expect(customers[0]).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
    });

    it('a click older than its link’s attribution window makes the customer without a link', async () => {
      const clickId = await click(org, new Date(Date.now() - 169 * HOUR));
      const res = await post('lead', member, { clickId, eventName: 'Sign up', customerExternalId: 'late_1' }).expect(201);
      expect(res.body.customer).toEqual({ id: expect.any(String), externalId: 'late_1', linkId: null, clickId });
    });

    it('an unknown click, or a click of another organization, is 404 Click not found', async () => {
      const foreign = await click(other, new Date(), await fixtures.link(other.organization.id));
      for (const clickId of [foreign, '0190a0a0-0000-7000-8000-000000000000']) {
        const res = await post('lead', member, { clickId, eventName: 'Sign up', customerExternalId: 'x' }).expect(404);
        expect(res.body).toEqual({ error: 'Not Found', message: 'Click not found', statusCode: 404 });
      }
      expect(await env.prisma.customer.count({ where: { externalId: 'x' } })).toBe(0);
    });

    it('refuses 21 metadata keys and a 3 KB metadata object', async () => {
      const clickId = await click(org);
      const many = Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, n]));
      const big = { blob: 'x'.repeat(3000) };
      const message = 'Must be an object of at most 20 keys and 2048 bytes of JSON';
      for (const metadata of [many, big]) {
        const res = await post('lead', member, { clickId, eventName: 'Sign up', customerExternalId: 'meta', metadata }).expect(400);
        expect(res.body).toEqual(validation('metadata', message));
      }
      const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, n) => [`k${n}`, n]));
      await post('lead', member, { clickId, eventName: 'Sign up', customerExternalId: 'meta', metadata: twenty }).expect(201);
    });
  });

  describe('sale', () => {
    it('stores the sale on the customer’s link, 201; a repeated invoiceId is 200 with the existing sale', async () => {
      await lead('buyer_1');
      const body = { customerExternalId: 'buyer_1', amount: 4900, currency: 'usd', invoiceId: 'inv_1', paymentProcessor: 'stripe' };
      const first = await post('sale', member, body).expect(201);
      expect(first.body).toEqual({
        sale: { id: expect.any(String), amount: 4900, currency: 'USD', linkId: link.id, customerId: expect.any(String), invoiceId: 'inv_1', createdAt: expect.any(String) },
      });
      const again = await post('sale', member, { ...body, amount: 1 }).expect(200);
      expect(again.body).toEqual(first.body);
      expect(await env.prisma.sale.count({ where: { organizationId: org.organization.id, invoiceId: 'inv_1' } })).toBe(1);
    });

    it('an unknown customer, or a customer of another organization, is 404 Customer not found', async () => {
      await post('lead', other.owner.apiKey, {
        clickId: await click(other, new Date(), await fixtures.link(other.organization.id)),
        eventName: 'Sign up',
        customerExternalId: 'theirs',
      }).expect(201);
      for (const customerExternalId of ['nobody', 'theirs']) {
        const res = await post('sale', member, { customerExternalId, amount: 100, currency: 'EUR' }).expect(404);
        expect(res.body).toEqual({ error: 'Not Found', message: 'Customer not found', statusCode: 404 });
      }
    });

    it.each([
      ['a negative amount', { amount: -1 }, 'amount', 'Must be an integer between 0 and 1000000000000 (minor units)'],
      ['a fractional amount', { amount: 49.99 }, 'amount', 'Must be an integer between 0 and 1000000000000 (minor units)'],
      ['an amount above 10^12', { amount: 1e12 + 1 }, 'amount', 'Must be an integer between 0 and 1000000000000 (minor units)'],
      ['an unknown currency', { currency: 'XYZ' }, 'currency', 'Must be an ISO 4217 currency code'],
      ['21 metadata keys', { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, n])) }, 'metadata', 'Must be an object of at most 20 keys and 2048 bytes of JSON'],
      ['a 3 KB metadata object', { metadata: { blob: 'x'.repeat(3000) } }, 'metadata', 'Must be an object of at most 20 keys and 2048 bytes of JSON'],
    ])('refuses %s', async (_label, change, field, message) => {
      const res = await post('sale', member, { customerExternalId: 'buyer_1', amount: 100, currency: 'USD', ...change }).expect(400);
      expect(res.body).toEqual(validation(field, message));
    });

    it('keeps every currency apart and stores each of many concurrent sales once', async () => {
      await lead('buyer_many');
      const calls = Array.from({ length: 60 }, (_, n) =>
        post('sale', member, { customerExternalId: 'buyer_many', amount: 100 + n, currency: n % 2 ? 'EUR' : 'JPY', invoiceId: `many_${n % 30}` }),
      );
      const statuses = (await Promise.all(calls)).map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(30);
      expect(statuses.filter((s) => s === 200)).toHaveLength(30);
      const stored = await env.prisma.sale.groupBy({ by: ['currency'], where: { invoiceId: { startsWith: 'many_' } }, _count: true });
      expect(stored.map((s) => [s.currency, s._count]).sort()).toEqual([['EUR', 15], ['JPY', 15]]);
    });
  });

  describe('refund', () => {
    it('refunds the whole sale by default, 201; more than was paid is 400; an unknown or foreign invoice is 404', async () => {
      await lead('refunder');
      await post('sale', member, { customerExternalId: 'refunder', amount: 5000, currency: 'GBP', invoiceId: 'inv_r' }).expect(201);
      const tooMuch = await post('refund', member, { invoiceId: 'inv_r', amount: 5001 }).expect(400);
      expect(tooMuch.body).toEqual(validation('amount', 'Must not be more than what is left to refund (5000)'));
      const part = await post('refund', member, { invoiceId: 'inv_r', amount: 2000 }).expect(201);
      expect(part.body).toEqual({
        refund: { id: expect.any(String), saleId: expect.any(String), invoiceId: 'inv_r', amount: 2000, currency: 'GBP', saleRefunded: 2000, createdAt: expect.any(String) },
      });
      const rest = await post('refund', member, { invoiceId: 'inv_r' }).expect(201);
      expect(rest.body.refund).toMatchObject({ amount: 3000, saleRefunded: 5000 });
      await post('refund', member, { invoiceId: 'inv_r', amount: 1 }).expect(400);
      for (const [key, invoiceId] of [[member, 'inv_none'], [other.owner.apiKey, 'inv_r']]) {
        const res = await post('refund', key, { invoiceId }).expect(404);
        expect(res.body).toEqual({ error: 'Not Found', message: 'Sale not found', statusCode: 404 });
      }
    });
  });

  describe('access', () => {
    it('a Viewer gets 403 for its role; a FREE organization 403 Conversions require a paid plan', async () => {
      const role = await post('sale', viewer, { customerExternalId: 'buyer_1', amount: 1, currency: 'USD' }).expect(403);
      expect(role.body).toEqual({ error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 });
      for (const path of ['lead', 'sale', 'refund']) {
        const res = await post(path, free.owner.apiKey, {}).expect(403);
        expect(res.body).toEqual({ error: 'Forbidden', message: 'Conversions require a paid plan', statusCode: 403 });
      }
    });
  });
});
