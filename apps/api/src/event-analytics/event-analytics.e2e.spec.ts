import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { CSV_HEADER } from '@dl/event-analytics';
import { PrismaService } from '@dl/platform/db';
import { InAppEventRow, InAppEventsRepository } from '@dl/sdk';
import { addMember, appEnv, authHeader, closeAll, RunningApp, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';

const DAY = 86_400_000;

describe('Event analytics (api)', () => {
  let env: TestEnv, api: RunningApp, org: SeededOrganization, other: SeededOrganization;
  let keys: { owner: string; admin: string; member: string; viewer: string; jwt: string };
  let link: { id: string; shortCode: string };
  const todayStart = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`).getTime();
  const todayTs = () => new Date(Math.max(Date.now() - 1000, todayStart + 1));
  const day = (offset: number) => new Date(todayStart - offset * DAY).toISOString().slice(0, 10);

  async function createLink(prisma: PrismaService, o: SeededOrganization, title: string | null) {
    return prisma.link.create({
      data: { organizationId: o.organization.id, userId: o.owner.user.id, templateId: o.template.id, shortCode: `ev${randomUUID().slice(0, 8)}`, originalUrl: 'https://example.com/', title },
      select: { id: true, shortCode: true },
    });
  }

  /** Stored through the worker's own write path (rows + daily rollup). */
  async function seed(o: SeededOrganization, linkId: string | null, events: Array<{ name: string; at: Date; data?: Record<string, unknown>; revenue?: number; currency?: string }>) {
    const repo = new InAppEventsRepository(env.prisma);
    const appId = randomUUID();
    const rows: InAppEventRow[] = events.map((e) => ({
      id: randomUUID(),
      organizationId: o.organization.id,
      appId,
      installId: randomUUID(),
      linkId,
      clickId: null,
      eventName: e.name,
      eventData: e.data ?? {},
      eventTimestamp: e.at,
      revenue: e.revenue ?? null,
      currency: e.currency ?? null,
      attributed: linkId !== null,
      receivedAt: new Date(),
    }));
    for (let i = 0; i < rows.length; i += 500) await repo.insertBatch(o.organization.id, rows.slice(i, i + 500));
    return rows;
  }

  beforeAll(async () => {
    ({ env, server: api } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false' }));
    org = await seedOrganization(env, { tier: 'PRO' });
    other = await seedOrganization(env, { tier: 'BUSINESS' });
    keys = {
      owner: org.owner.apiKey,
      jwt: org.owner.jwt,
      admin: (await addMember(env, org.organization.id, 'ADMIN')).apiKey,
      member: (await addMember(env, org.organization.id, 'MEMBER')).apiKey,
      viewer: (await addMember(env, org.organization.id, 'VIEWER')).apiKey,
    };
    link = await createLink(env.prisma, org, 'Spring sale, "big" one');
    const threeDaysAgo = new Date(todayStart - 3 * DAY + 12 * 3600_000);
    await seed(org, link.id, [
      { name: 'purchase', at: todayTs(), data: { sku: 'A1', qty: 2 } },
      { name: 'purchase', at: todayTs() },
      { name: 'purchase', at: todayTs() },
      { name: 'revenue', at: todayTs(), data: { revenue: 10.5, currency: 'USD' }, revenue: 10.5, currency: 'USD' },
      { name: 'revenue', at: todayTs(), data: { revenue: 4.5, currency: 'EUR', note: 'a,b "c"' }, revenue: 4.5, currency: 'EUR' },
      { name: 'Add_To_Cart', at: todayTs() },
      { name: 'purchase', at: threeDaysAgo },
      { name: 'purchase', at: threeDaysAgo },
      { name: 'purchase', at: new Date(todayStart - 40 * DAY) },
    ]);
    // Unattributed installs' events are kept but left out.
    await seed(org, null, Array.from({ length: 5 }, () => ({ name: 'purchase', at: todayTs() })));
    const otherLink = await createLink(env.prisma, other, null);
    await seed(other, otherLink.id, Array.from({ length: 4 }, () => ({ name: 'secret_event', at: todayTs() })));
  });

  afterAll(() => closeAll(api, env));

  const get = (path: string, key = keys.owner) => request(api.url).get(`/api/analytics/events/${path}`).set(authHeader(key));

  describe('overview', () => {
    it('answers totals, today, revenue and top events of attributed events in the window', async () => {
      const res = await get('overview').expect(200);
      expect(res.body).toEqual({
        totalEvents: 8,
        uniqueEventNames: 3,
        eventsToday: 6,
        totalRevenue: 15,
        topEvents: [
          { eventName: 'purchase', count: 5, lastOccurred: expect.any(String) },
          { eventName: 'revenue', count: 2, lastOccurred: expect.any(String) },
          { eventName: 'Add_To_Cart', count: 1, lastOccurred: expect.any(String) },
        ],
      });
      expect(Date.parse(res.body.topEvents[0].lastOccurred)).toBeGreaterThanOrEqual(todayStart);
      expect((await get('overview?days=60').expect(200)).body.totalEvents).toBe(9);
      expect((await get('overview?days=1').expect(200)).body.totalEvents).toBe(6);
      // JWT sessions work too.
      await get('overview', keys.jwt).expect(200);
    });

    it.each(['0', '366', 'abc', '1.5'])('days=%s → 400', async (days) => {
      const res = await get(`overview?days=${days}`).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Days must be between 1 and 365', statusCode: 400, validation: { days: 'Must be between 1 and 365' } });
    });

    it('refuses unknown query fields', async () => {
      const res = await get('overview?foo=1').expect(400);
      expect(res.body.validation).toEqual({ foo: 'Unknown field' });
    });
  });

  describe('timeline', () => {
    it('has one entry per day up to today, zero-count days included', async () => {
      const res = await get('timeline?days=7').expect(200);
      expect(res.body.timeline).toHaveLength(7);
      expect(res.body.timeline.map((t: { date: string }) => t.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map(day));
      expect(res.body.timeline.map((t: { count: number }) => t.count)).toEqual([0, 0, 0, 2, 0, 0, 6]);
      const purchases = await get('timeline?days=7&eventName=purchase').expect(200);
      expect(purchases.body.timeline.map((t: { count: number }) => t.count)).toEqual([0, 0, 0, 2, 0, 0, 3]);
      expect((await get('timeline').expect(200)).body.timeline).toHaveLength(30);
      await get('timeline?days=400').expect(400);
    });
  });

  describe('list', () => {
    it('pages events newest first with the in-app event shape', async () => {
      const res = await get('list').expect(200);
      expect(res.body).toMatchObject({ total: 8, page: 1, limit: 50 });
      expect(res.body.events).toHaveLength(8);
      const first = res.body.events.find((e: { eventData: { sku?: string } }) => e.eventData.sku === 'A1');
      expect(first).toEqual({
        id: expect.any(String),
        eventName: 'purchase',
        eventData: { sku: 'A1', qty: 2 },
        eventTimestamp: expect.any(String),
        installId: expect.any(String),
        linkId: link.id,
        linkShortCode: link.shortCode,
        linkTitle: 'Spring sale, "big" one',
      });
      const times = res.body.events.map((e: { eventTimestamp: string }) => Date.parse(e.eventTimestamp));
      expect([...times].sort((a, b) => b - a)).toEqual(times);

      const page2 = await get('list?limit=3&page=2').expect(200);
      expect(page2.body).toMatchObject({ total: 8, page: 2, limit: 3 });
      expect(page2.body.events.map((e: { id: string }) => e.id)).toEqual(res.body.events.slice(3, 6).map((e: { id: string }) => e.id));
    });

    it('filters by exact name and by a case-insensitive search', async () => {
      expect((await get('list?eventName=purchase').expect(200)).body.total).toBe(5);
      const search = await get('list?search=CART').expect(200);
      expect(search.body.total).toBe(1);
      expect(search.body.events.map((e: { eventName: string }) => e.eventName)).toEqual(['Add_To_Cart']);
      expect((await get('list?search=%25').expect(200)).body.total).toBe(0);
    });

    it.each([
      ['limit=101', 'Limit must be between 1 and 100', { limit: 'Must be between 1 and 100' }],
      ['limit=0', 'Limit must be between 1 and 100', { limit: 'Must be between 1 and 100' }],
      ['page=0', 'Page must be between 1 and 1000000', { page: 'Must be between 1 and 1000000' }],
      ['page=x', 'Page must be between 1 and 1000000', { page: 'Must be between 1 and 1000000' }],
    ])('%s → 400', async (q, message, validation) => {
      const res = await get(`list?${q}`).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message, statusCode: 400, validation });
    });
  });

  describe('names', () => {
    it('lists every attributed event name with its all-time count', async () => {
      const res = await get('names').expect(200);
      expect(res.body).toEqual({
        eventNames: [
          { name: 'purchase', count: 6 },
          { name: 'revenue', count: 2 },
          { name: 'Add_To_Cart', count: 1 },
        ],
      });
    });
  });

  describe('export', () => {
    it('streams JSON with pagination', async () => {
      const res = await get('export', keys.admin).expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body.pagination).toEqual({ total: 8, limit: 1000, offset: 0, hasMore: false });
      expect(res.body.data).toHaveLength(8);
      expect(Object.keys(res.body.data[0])).toEqual(['id', 'eventName', 'eventData', 'eventTimestamp', 'installId', 'linkId', 'linkShortCode', 'linkTitle']);
      const slice = await get('export?limit=3&offset=2&eventName=purchase').expect(200);
      expect(slice.body.pagination).toEqual({ total: 5, limit: 3, offset: 2, hasMore: false });
      expect(slice.body.data).toHaveLength(3);
      const more = await get('export?limit=2').expect(200);
      expect(more.body.pagination).toEqual({ total: 8, limit: 2, offset: 0, hasMore: true });
    });

    it('streams CSV with the exact header that parses back', async () => {
      const res = await get('export?format=csv').expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="events.csv"');
      expect(res.text.split('\n')[0]).toBe(CSV_HEADER);
      const records = parse(res.text, { columns: true }) as Array<Record<string, string>>;
      expect(records).toHaveLength(8);
      const rev = records.find((r) => r.eventData.includes('EUR'));
      expect(JSON.parse(rev!.eventData)).toEqual({ revenue: 4.5, currency: 'EUR', note: 'a,b "c"' });
      expect(rev).toMatchObject({ eventName: 'revenue', linkId: link.id, linkShortCode: link.shortCode, linkTitle: 'Spring sale, "big" one' });
      // eventData is always a quoted JSON string.
      expect(res.text).toContain(',"{}",');
    });

    it('streams exports larger than one chunk without duplicates', async () => {
      const big = await seedOrganization(env, { tier: 'UNLIMITED' });
      const l = await createLink(env.prisma, big, 'Big');
      const seeded = await seed(big, l.id, Array.from({ length: 2500 }, (_, i) => ({ name: `e${i % 7}`, at: new Date(todayStart - (i % 5) * DAY + i) })));
      const res = await request(api.url).get('/api/analytics/events/export?format=csv&limit=3000').set(authHeader(big.owner.apiKey)).expect(200);
      const records = parse(res.text, { columns: true }) as Array<{ id: string }>;
      expect(records).toHaveLength(2500);
      expect(new Set(records.map((r) => r.id))).toEqual(new Set(seeded.map((r) => r.id)));
      const json = await request(api.url).get('/api/analytics/events/export?limit=1500&offset=900').set(authHeader(big.owner.apiKey)).expect(200);
      expect(json.body.data).toHaveLength(1500);
      expect(json.body.pagination).toEqual({ total: 2500, limit: 1500, offset: 900, hasMore: true });
    });

    it.each([
      ['limit=0', 'Limit must be between 1 and 100000'],
      ['limit=100001', 'Limit must be between 1 and 100000'],
      ['offset=-1', 'Offset must be at least 0'],
      ['format=xml', 'Validation error'],
    ])('%s → 400', async (q, message) => {
      const res = await get(`export?${q}`).expect(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', message, statusCode: 400 });
    });
  });

  describe('permissions, plans and tenancy', () => {
    it('lets Members read but not export, and Viewers do neither', async () => {
      await get('overview', keys.member).expect(200);
      const exp = await get('export', keys.member).expect(403);
      expect(exp.body).toEqual({ error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 });
      for (const path of ['overview', 'timeline', 'list', 'names', 'export']) {
        const res = await get(path, keys.viewer).expect(403);
        expect(res.body.message).toBe('Your role does not allow this action');
      }
      await request(api.url).get('/api/analytics/events/overview').expect(401);
    });

    it('answers 403 on the FREE plan', async () => {
      const free = await seedOrganization(env, { tier: 'FREE' });
      for (const path of ['overview', 'timeline', 'list', 'names', 'export']) {
        const res = await get(path, free.owner.apiKey).expect(403);
        expect(res.body).toEqual({ error: 'Forbidden', message: 'Event analytics is not available on your plan', statusCode: 403 });
      }
    });

    it("never shows another organization's events", async () => {
      const res = await get('names', other.owner.apiKey).expect(200);
      expect(res.body).toEqual({ eventNames: [{ name: 'secret_event', count: 4 }] });
      expect((await get('list?search=secret').expect(200)).body.total).toBe(0);
    });
  });
});
