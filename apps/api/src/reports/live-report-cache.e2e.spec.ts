import Redis from 'ioredis';
import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { Clock } from '@dl/reports';
import { appEnv, authHeader, ReportFixtures, RunningApp, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const NOW = new Date('2026-12-15T12:00:00Z');

describe('live-month report cached 60 s per organization (decisions §14)', () => {
  let env: TestEnv;
  let api: RunningApp;
  let fx: ReportFixtures;
  let redis: Redis;
  let acme: SeededOrganization;
  let other: SeededOrganization;
  let acmeLink: string;
  let otherLink: string;
  const get = (path: string, token: string) => request(api.url).get(path).set(authHeader(token));
  const liveKey = (orgId: string) => `${env.config.REDIS_PREFIX}:report:live:${orgId}:2026-12`;

  beforeAll(async () => {
    ({ env, server: api } = await appEnv(createApiApp, { REPORT_LIVE_CACHE_SECONDS: '60', RATE_LIMIT_ENABLED: 'false' }));
    jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => NOW);
    fx = new ReportFixtures(env.prisma);
    redis = new Redis(env.config.REDIS_URL);
    acme = await seedOrganization(env, { tier: Tier.PRO, name: 'Acme' });
    other = await seedOrganization(env, { tier: Tier.PRO, name: 'Other' });
    for (const o of [acme, other]) {
      await env.prisma.organization.update({ where: { id: o.organization.id }, data: { createdAt: new Date('2026-01-10T00:00:00Z') } });
    }
    acmeLink = (await fx.link(acme.organization.id, { shortCode: 'acmelive', createdAt: new Date('2026-02-01T00:00:00Z') })).id;
    otherLink = (await fx.link(other.organization.id, { shortCode: 'otherlive', createdAt: new Date('2026-02-01T00:00:00Z') })).id;
    await fx.rollup(acme.organization.id, acmeLink, '2026-12-03', 7);
    await fx.rollup(acme.organization.id, acmeLink, '2026-11-05', 40);
    await fx.rollup(other.organization.id, otherLink, '2026-12-04', 3);
  });
  afterAll(async () => {
    redis?.disconnect();
    await api?.close();
    await env?.teardown();
  });

  it('answers the cached live report for 60 s, per organization, then builds it again', async () => {
    const first = await get('/api/reports/monthly/2026-12', acme.owner.apiKey).expect(200);
    expect(first.body.kpis.clicks).toEqual({ value: 7, prior: 40, deltaPct: -82.5 });
    const ttl = await redis.ttl(liveKey(acme.organization.id));
    expect(ttl).toBeGreaterThan(50);
    expect(ttl).toBeLessThanOrEqual(60);

    // New data within the minute: the same answer (no rebuild), for every member of the organization.
    await fx.rollup(acme.organization.id, acmeLink, '2026-12-10', 5);
    const later = new Date(NOW.getTime() + 30_000);
    jest.spyOn(api.app.get(Clock), 'now').mockImplementation(() => later);
    const cached = await get('/api/reports/monthly/2026-12', acme.owner.jwt).expect(200);
    expect(cached.body).toEqual(first.body);
    expect(cached.body.generatedAt).toBe(NOW.toISOString());

    // Another organization never gets this organization's cached report.
    const theirs = await get('/api/reports/monthly/2026-12', other.owner.apiKey).expect(200);
    expect(theirs.body.kpis.clicks.value).toBe(3);
    expect(theirs.body.generatedAt).toBe(later.toISOString());

    // The live report is never stored; a past month is stored as before (not in the live cache).
    expect(await env.prisma.monthlyReport.count()).toBe(0);
    await get('/api/reports/monthly/2026-11', acme.owner.apiKey).expect(200);
    expect(await env.prisma.monthlyReport.count({ where: { organizationId: acme.organization.id, period: '2026-11' } })).toBe(1);
    expect(await redis.exists(`${env.config.REDIS_PREFIX}:report:live:${acme.organization.id}:2026-11`)).toBe(0);

    // Once the entry expires (its 60 s are up), the next read builds from current data.
    await redis.del(liveKey(acme.organization.id));
    const fresh = await get('/api/reports/monthly/2026-12', acme.owner.apiKey).expect(200);
    expect(fresh.body.kpis.clicks.value).toBe(12);
    expect(fresh.body.generatedAt).toBe(later.toISOString());
  });

  it('concurrent reads of a cold live month build it once', async () => {
    await redis.del(liveKey(other.organization.id));
    let builds = 0;
    const clock = api.app.get(Clock);
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(NOW.getTime() + ++builds));
    const responses = await Promise.all(Array.from({ length: 10 }, () => get('/api/reports/monthly/2026-12', other.owner.apiKey)));
    jest.spyOn(clock, 'now').mockImplementation(() => NOW);
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    // Every build stamps its own generatedAt: one value means one build answered all ten.
    expect(new Set(responses.map((r) => r.body.generatedAt)).size).toBe(1);
  });
});
