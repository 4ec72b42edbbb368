import request from 'supertest';
import { Role, Tier } from '@dl/platform/db';
import { Clock } from '@dl/reports';
import { addMember, appEnv, authHeader, closeAll, ReportFixtures, RunningApp, SeededOrganization, SeededUser, seedOrganization, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const NOW = new Date('2026-12-15T12:00:00Z');
const err = (statusCode: number, error: string, message: string) => ({ error, message, statusCode });
const INVALID = err(400, 'INVALID_PERIOD', 'Period must be a month in the format YYYY-MM');
const FUTURE = err(400, 'PERIOD_IN_FUTURE', 'This month has not started yet');
const LIVE = err(400, 'PERIOD_LIVE', 'The current month is built live and cannot be regenerated');
const ROLE = err(403, 'INSUFFICIENT_ROLE', 'Only the workspace owner can regenerate a report');
const BEFORE = err(404, 'PERIOD_BEFORE_WORKSPACE', 'This month ended before the workspace was created');
const RETAINED = err(404, 'PERIOD_NOT_RETAINED', 'Reports are kept for 400 days; this month is no longer retained');

describe('GET /api/reports/monthly', () => {
  let env: TestEnv;
  let api: RunningApp;
  let fx: ReportFixtures;
  let acme: SeededOrganization;
  let admin: SeededUser;
  let member: SeededUser;
  let viewer: SeededUser;
  let linkId: string;

  const get = (path: string, token: string) => request(api.url).get(path).set(authHeader(token));

  beforeAll(async () => {
    ({ env, server: api } = await appEnv(createApiApp));
    jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => NOW);
    fx = new ReportFixtures(env.prisma);
    acme = await seedOrganization(env, { tier: Tier.UNLIMITED, name: 'Acme Inc' });
    await env.prisma.organization.update({ where: { id: acme.organization.id }, data: { createdAt: new Date('2026-01-10T00:00:00Z') } });
    admin = await addMember(env, acme.organization.id, Role.ADMIN);
    member = await addMember(env, acme.organization.id, Role.MEMBER);
    viewer = await addMember(env, acme.organization.id, Role.VIEWER);
    linkId = (await fx.link(acme.organization.id, { shortCode: 'acmesale', title: 'Acme Sale', createdAt: new Date('2026-02-01T00:00:00Z') })).id;
    await fx.rollup(acme.organization.id, linkId, '2026-11-05', 40);
    await fx.rollup(acme.organization.id, linkId, '2026-10-05', 20);
    await fx.rollup(acme.organization.id, linkId, '2026-12-03', 7);
  });

  afterAll(() => closeAll(api, env));

  it('needs a credential', async () => {
    const res = await request(api.url).get('/api/reports/monthly').expect(401);
    expect(res.body).toEqual(err(401, 'Unauthorized', 'Missing or invalid API key'));
    await request(api.url).get('/api/reports/monthly/2026-11').expect(401);
  });

  it('lists only the live month before any month was generated (JWT or API key)', async () => {
    const expected = { reports: [{ period: '2026-12', label: 'December 2026', generatedAt: null, live: true }] };
    expect((await get('/api/reports/monthly', acme.owner.jwt).expect(200)).body).toEqual(expected);
    expect((await get('/api/reports/monthly', viewer.apiKey).expect(200)).body).toEqual(expected);
  });

  it('builds the current month live on every read and never stores it', async () => {
    const res = await get('/api/reports/monthly/2026-12', viewer.jwt).expect(200);
    expect(res.body.period).toEqual({
      type: 'month', start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z', label: 'December 2026', priorLabel: 'November 2026',
    });
    expect(res.body.kpis.clicks).toEqual({ value: 7, prior: 40, deltaPct: -82.5 });
    expect(res.body.generatedAt).toBe(NOW.toISOString());
    expect(await env.prisma.monthlyReport.count()).toBe(0);
  });

  describe('errors, in the order of decisions §11', () => {
    const cases: Array<[string, string, () => string, object]> = [
      ['not YYYY-MM', '/api/reports/monthly/november', () => acme.owner.jwt, INVALID],
      ['month 13', '/api/reports/monthly/2026-13', () => acme.owner.jwt, INVALID],
      ['one-digit month', '/api/reports/monthly/2026-1', () => acme.owner.jwt, INVALID],
      ['invalid beats regenerate by a viewer', '/api/reports/monthly/2026-00?regenerate=1', () => viewer.jwt, INVALID],
      ['a month that has not started', '/api/reports/monthly/2027-01', () => acme.owner.jwt, FUTURE],
      ['future beats role', '/api/reports/monthly/2027-01?regenerate=1', () => viewer.apiKey, FUTURE],
      ['more than 400 days ago', '/api/reports/monthly/2025-10', () => acme.owner.jwt, RETAINED],
      ['not retained beats before-workspace', '/api/reports/monthly/2024-01', () => acme.owner.jwt, RETAINED],
      ['ended before the workspace was created', '/api/reports/monthly/2025-12', () => acme.owner.jwt, BEFORE],
      ['retained but before the workspace (Nov 2025)', '/api/reports/monthly/2025-11', () => acme.owner.jwt, BEFORE],
      ['before-workspace beats role', '/api/reports/monthly/2025-12?regenerate=1', () => viewer.jwt, BEFORE],
      ['regenerate the live month', '/api/reports/monthly/2026-12?regenerate=1', () => acme.owner.jwt, LIVE],
      ['live beats role', '/api/reports/monthly/2026-12?regenerate=1', () => member.jwt, LIVE],
      ['regenerate by an admin', '/api/reports/monthly/2026-11?regenerate=1', () => admin.jwt, ROLE],
      ['regenerate by a member API key', '/api/reports/monthly/2026-11?regenerate=1', () => member.apiKey, ROLE],
      ['regenerate by a viewer', '/api/reports/monthly/2026-11?regenerate=1', () => viewer.jwt, ROLE],
    ];
    it.each(cases)('%s', async (_name, path, token, body) => {
      const res = await get(path, token());
      expect(res.body).toEqual(body);
      expect(res.status).toBe((body as { statusCode: number }).statusCode);
    });

    it('the month the workspace was created in is reported', async () => {
      await get('/api/reports/monthly/2026-01', acme.owner.jwt).expect(200);
    });

    it('rejects an unknown regenerate value and unknown query fields', async () => {
      const bad = await get('/api/reports/monthly/2026-10?regenerate=yes', acme.owner.jwt).expect(400);
      expect(bad.body).toEqual({ ...err(400, 'Bad Request', 'Validation error'), validation: { regenerate: 'Must be 1 or 0' } });
      const unknown = await get('/api/reports/monthly/2026-10?foo=1', acme.owner.jwt).expect(400);
      expect(unknown.body).toEqual({ ...err(400, 'Bad Request', 'Validation error'), validation: { foo: 'Unknown field' } });
    });

    it('failed requests store nothing', async () => {
      expect(await env.prisma.monthlyReport.count({ where: { period: { in: ['2026-11', '2026-12', '2027-01'] } } })).toBe(0);
    });
  });

  describe('storage and regeneration', () => {
    it('a finished month is generated on first read, stored, and later reads return the same data', async () => {
      const first = await get('/api/reports/monthly/2026-11', member.apiKey).expect(200);
      expect(first.body.kpis.clicks).toEqual({ value: 40, prior: 20, deltaPct: 100 });
      expect(first.body.topLinks).toEqual([{ label: 'Acme Sale', sublabel: 'http://sho.rt/acmesale', value: 40, share: 1 }]);
      await fx.rollup(acme.organization.id, linkId, '2026-11-06', 60);
      const again = await get('/api/reports/monthly/2026-11', viewer.jwt).expect(200);
      expect(again.body).toEqual(first.body);
      const rows = await env.prisma.monthlyReport.findMany({ where: { organizationId: acme.organization.id, period: '2026-11' } });
      expect(rows).toHaveLength(1);
      expect(rows[0].generatedAt.toISOString()).toBe(first.body.generatedAt);
    });

    it('the list shows a stored month with generatedAt and live false, newest first', async () => {
      const res = await get('/api/reports/monthly', viewer.jwt).expect(200);
      expect(res.body.reports).toEqual([
        { period: '2026-12', label: 'December 2026', generatedAt: null, live: true },
        { period: '2026-11', label: 'November 2026', generatedAt: NOW.toISOString(), live: false },
        { period: '2026-01', label: 'January 2026', generatedAt: NOW.toISOString(), live: false },
      ]);
    });

    it('the owner regenerates a finished month from current data and it replaces the stored copy', async () => {
      const later = new Date('2026-12-16T09:00:00Z');
      jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => later);
      try {
        const res = await get('/api/reports/monthly/2026-11?regenerate=1', acme.owner.apiKey).expect(200);
        expect(res.body.kpis.clicks).toEqual({ value: 100, prior: 20, deltaPct: 400 });
        expect(res.body.generatedAt).toBe(later.toISOString());
        const read = await get('/api/reports/monthly/2026-11', viewer.jwt).expect(200);
        expect(read.body).toEqual(res.body);
        expect(await env.prisma.monthlyReport.count({ where: { organizationId: acme.organization.id, period: '2026-11' } })).toBe(1);
        const regenerateZero = await get('/api/reports/monthly/2026-11?regenerate=0', viewer.jwt).expect(200);
        expect(regenerateZero.body).toEqual(res.body);
      } finally {
        jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => NOW);
      }
    });

    it('20 concurrent first reads store exactly one row and all answer the same report', async () => {
      // Every build gets its own generatedAt, so equal bodies prove everyone answers the stored row.
      let tick = 0;
      jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => new Date(NOW.getTime() + ++tick));
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => get('/api/reports/monthly/2026-10', acme.owner.apiKey)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      const bodies = new Set(responses.map((r) => JSON.stringify(r.body)));
      expect(bodies.size).toBe(1);
      const rows = await env.prisma.monthlyReport.findMany({ where: { organizationId: acme.organization.id, period: '2026-10' } });
      expect(rows).toHaveLength(1);
      expect(responses[0].body.generatedAt).toBe(rows[0].generatedAt.toISOString());
      expect(tick).toBeGreaterThan(1);
      jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => NOW);
    });
  });

  describe('tenancy', () => {
    it("another organization sees neither the stored months nor the data of this one", async () => {
      const other = await seedOrganization(env, { tier: Tier.PRO, name: 'Other Co' });
      await env.prisma.organization.update({ where: { id: other.organization.id }, data: { createdAt: new Date('2026-06-01T00:00:00Z') } });
      const list = await get('/api/reports/monthly', other.owner.jwt).expect(200);
      expect(list.body.reports).toEqual([{ period: '2026-12', label: 'December 2026', generatedAt: null, live: true }]);
      const report = await get('/api/reports/monthly/2026-11', other.owner.jwt).expect(200);
      expect(report.body.organization).toMatchObject({ id: other.organization.id, name: 'Other Co', tier: 'PRO' });
      expect(report.body.kpis.clicks).toEqual({ value: 0, prior: 0, deltaPct: null });
      expect(report.body.topLinks).toEqual([]);
      expect(await env.prisma.monthlyReport.count({ where: { organizationId: other.organization.id } })).toBe(1);
    });
  });
});
