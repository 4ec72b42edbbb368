import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { CONVERSIONS_CSV_HEADER } from '@dl/conversions';
import { addMember, authHeader, ClickFixtures, createTestEnv, RunningApp, seedOrganization, SeededOrganization, startApp, TestEnv } from '@dl/testing';

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() - offset * DAY).toISOString().slice(0, 10);

describe('Conversion analytics, customers and export (decisions §23)', () => {
  let env: TestEnv;
  let api: RunningApp;
  let org: SeededOrganization;
  let viewer: string;
  let fixtures: ClickFixtures;
  let spring: { id: string; shortCode: string };
  let autumn: { id: string; shortCode: string };
  const customers: Record<string, string> = {};

  const get = (path: string, key = viewer) => request(api.url).get(path).set(authHeader(key));
  const track = (path: string, body: object) => request(api.url).post(`/api/track/${path}`).set(authHeader(org.owner.apiKey)).send(body);
  /** Clicks as the worker rolls them up (total and country rows of today). */
  const rollup = async (linkId: string, clicks: number, country: string) => {
    for (const [dimension, value] of [['total', ''], ['country', country]]) {
      await env.prisma.clickRollup.create({ data: { organizationId: org.organization.id, linkId, day: new Date(`${day(0)}T00:00:00Z`), dimension, value, clicks } });
    }
  };
  const lead = async (link: { id: string }, externalId: string, country: string) => {
    const click = await fixtures.click({ id: link.id, organizationId: org.organization.id }, { countryCode: country });
    customers[externalId] = (await track('lead', { clickId: click.id, eventName: 'Sign up', customerExternalId: externalId }).expect(201)).body.customer.id;
  };

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    api = await startApp(createApiApp, env.config);
    org = await seedOrganization(env, { tier: 'PRO' });
    viewer = (await addMember(env, org.organization.id, 'VIEWER')).apiKey;
    fixtures = new ClickFixtures(env.prisma).useOwner(org.organization.id, org.owner.user.id, org.template.id);
    const project = await fixtures.project(org.organization.id);
    spring = await fixtures.link(org.organization.id, { title: 'Spring', projectId: project.id });
    autumn = await fixtures.link(org.organization.id, { title: 'Autumn' });
    await env.prisma.link.update({ where: { id: spring.id }, data: { tags: ['promo'], utmParameters: { campaign: 'spring' } } });
    await rollup(spring.id, 10, 'GB');
    await rollup(autumn.id, 10, 'US');
    await lead(spring, 'ada', 'GB');
    await lead(spring, 'bob', 'GB');
    await lead(autumn, 'cy', 'US');
    await lead(autumn, 'dee', 'US');
    await track('sale', { customerExternalId: 'ada', amount: 5000, currency: 'USD', invoiceId: 'a1' }).expect(201);
    await track('sale', { customerExternalId: 'ada', amount: 2000, currency: 'EUR', invoiceId: 'a2' }).expect(201);
    await track('sale', { customerExternalId: 'cy', amount: 1000, currency: 'USD', invoiceId: 'c1' }).expect(201);
    await track('refund', { invoiceId: 'a1', amount: 1500 }).expect(201);
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
  });

  it('answers the funnel and revenue per currency, refunds netted, currencies apart', async () => {
    const res = await get('/api/analytics/conversions').expect(200);
    expect({ ...res.body, rows: undefined }).toEqual({
      clicks: 20,
      leads: 4,
      sales: 3,
      customers: 4,
      revenue: [
        { currency: 'USD', amount: 6000, refunded: 1500, net: 4500 },
        { currency: 'EUR', amount: 2000, refunded: 0, net: 2000 },
      ],
      clickToLead: 0.2,
      leadToSale: 0.5,
      rows: undefined,
    });
    expect(res.body.rows).toEqual([
      { key: day(0), label: day(0), clicks: 20, leads: 4, sales: 3, revenue: [{ currency: 'USD', net: 4500 }, { currency: 'EUR', net: 2000 }] },
    ]);
  });

  it.each([
    ['link', (r: { key: string }) => r.key === spring.id, { label: 'Spring', clicks: 10, leads: 2, sales: 2 }],
    ['campaign', (r: { key: string }) => r.key === 'spring', { label: 'spring', clicks: 10, leads: 2, sales: 2 }],
    ['country', (r: { key: string }) => r.key === 'US', { label: 'US', clicks: 10, leads: 2, sales: 1 }],
    ['source', (r: { key: string }) => r.key === 'api', { label: 'api', clicks: null, leads: 4, sales: 3 }],
  ])('groups by %s', async (groupBy, pick, expected) => {
    const res = await get(`/api/analytics/conversions?groupBy=${groupBy}`).expect(200);
    expect(res.body.rows.find(pick)).toMatchObject(expected);
  });

  it('filters by link, project, tag and campaign', async () => {
    for (const q of [`linkId=${spring.id}`, `projectId=${(await env.prisma.link.findUniqueOrThrow({ where: { id: spring.id } })).projectId}`, 'tag=promo', 'utmCampaign=spring']) {
      const res = await get(`/api/analytics/conversions?${q}`).expect(200);
      expect([q, res.body.clicks, res.body.leads, res.body.sales, res.body.customers]).toEqual([q, 10, 2, 2, 2]);
    }
  });

  it('answers zeros and null rates for a link with nothing (another organization’s link included)', async () => {
    const theirs = await seedOrganization(env, { tier: 'PRO' });
    const foreign = await new ClickFixtures(env.prisma).useOwner(theirs.organization.id, theirs.owner.user.id, theirs.template.id).link(theirs.organization.id);
    const res = await get(`/api/analytics/conversions?linkId=${foreign.id}`).expect(200);
    expect(res.body).toEqual({ clicks: 0, leads: 0, sales: 0, customers: 0, revenue: [], clickToLead: null, leadToSale: null, rows: [] });
  });

  it('refuses a bad window or group with 400 naming the field', async () => {
    const bad = async (q: string, field: string) => {
      const res = await get(`/api/analytics/conversions?${q}`).expect(400);
      expect(Object.keys(res.body.validation)).toEqual([field]);
    };
    await bad(`from=${day(0)}&to=${day(3)}`, 'from');
    await bad('from=2025-01-01&to=2026-06-01', 'to');
    await bad('groupBy=week', 'groupBy');
    await bad('days=366', 'days');
  });

  it('adds leads, sales and net revenue to link analytics', async () => {
    const res = await get(`/api/analytics/links/${spring.id}`).expect(200);
    expect([res.body.totalClicks >= 0, res.body.leads, res.body.sales, res.body.revenue]).toEqual([
      true,
      2,
      2,
      [{ currency: 'USD', net: 3500 }, { currency: 'EUR', net: 2000 }],
    ]);
  });

  it('lists customers newest first with their sales, pages with X-Next-Cursor, searches', async () => {
    const first = await get('/api/customers?limit=3').expect(200);
    expect(first.body.customers.map((c: { externalId: string }) => c.externalId)).toEqual(['dee', 'cy', 'bob']);
    const rest = await get(`/api/customers?limit=3&cursor=${first.headers['x-next-cursor']}`).expect(200);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    expect(rest.body.customers).toEqual([
      {
        id: customers.ada,
        externalId: 'ada',
        name: null,
        email: null,
        linkId: spring.id,
        shortCode: spring.shortCode,
        clickedAt: expect.any(String),
        firstLeadAt: expect.any(String),
        sales: 2,
        revenue: [{ currency: 'EUR', net: 2000 }, { currency: 'USD', net: 3500 }],
      },
    ]);
    const found = await get('/api/customers?search=CY').expect(200);
    expect(found.body.customers.map((c: { externalId: string }) => c.externalId)).toEqual(['cy']);
    const byLink = await get(`/api/customers?linkId=${autumn.id}`).expect(200);
    expect(byLink.body.customers.map((c: { externalId: string }) => c.externalId)).toEqual(['dee', 'cy']);
  });

  it('shows a customer’s leads, sales and refunds in time order; an unknown one is 404', async () => {
    const res = await get(`/api/customers/${customers.ada}`).expect(200);
    expect(res.body.events.map((e: { type: string; amount: number | null; invoiceId: string | null }) => [e.type, e.amount, e.invoiceId])).toEqual([
      ['lead', null, null],
      ['sale', 5000, 'a1'],
      ['sale', 2000, 'a2'],
      ['refund', 1500, 'a1'],
    ]);
    const missing = await get('/api/customers/00000000-0000-4000-8000-000000000000').expect(404);
    expect(missing.body).toEqual({ error: 'Not Found', message: 'Customer not found', statusCode: 404 });
    // Another organization's customer answers like a missing one.
    const other = await seedOrganization(env, { tier: 'PRO' });
    const foreign = await get(`/api/customers/${customers.ada}`, other.owner.apiKey).expect(404);
    expect(foreign.body).toEqual(missing.body);
  });

  it('exports the window’s leads and sales as CSV', async () => {
    const res = await get('/api/analytics/conversions/export').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.text.split('\n')[0]).toBe(CONVERSIONS_CSV_HEADER);
    const rows = parse(res.text, { columns: true }) as Array<Record<string, string>>;
    expect(rows.filter((r) => r.type === 'lead')).toHaveLength(4);
    expect(rows.filter((r) => r.type === 'sale').map((r) => [r.customerExternalId, r.amount, r.refunded, r.currency, r.shortCode])).toEqual([
      ['ada', '5000', '1500', 'USD', spring.shortCode],
      ['ada', '2000', '0', 'EUR', spring.shortCode],
      ['cy', '1000', '0', 'USD', autumn.shortCode],
    ]);
  });

  it('is a paid-plan feature', async () => {
    const free = await seedOrganization(env);
    for (const path of ['/api/analytics/conversions', '/api/customers', '/api/analytics/conversions/export']) {
      const res = await get(path, free.owner.apiKey).expect(403);
      expect(res.body).toEqual({ error: 'Forbidden', message: 'Conversions require a paid plan', statusCode: 403 });
    }
  });
});
