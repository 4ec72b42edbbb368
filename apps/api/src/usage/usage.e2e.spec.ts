import request from 'supertest';
import { AccountsService } from '@dl/auth';
import { appEnv, authHeader, closeAll, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

describe('GET /api/usage', () => {
  let env: TestEnv, server: RunningApp;

  beforeAll(async () => ({ env, server } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false' })));
  afterAll(() => closeAll(server, env));

  async function addLink(org: SeededOrganization, code: string): Promise<string> {
    const link = await env.prisma.link.create({
      data: {
        organizationId: org.organization.id,
        userId: org.owner.user.id,
        templateId: org.template.id,
        shortCode: code,
        originalUrl: 'https://example.com',
      },
    });
    return link.id;
  }

  function utcDay(monthOffset: number, day: number): Date {
    const now = new Date();
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthOffset, day));
  }

  it('answers the plan limits and zero usage for a new FREE organization', async () => {
    const org = await seedOrganization(env);
    const res = await request(server.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
    expect(res.body).toEqual({
      tier: 'FREE',
      links: { used: 0, limit: 1000 },
      clicksThisMonth: { used: 0, limit: 5000 },
      apiKeys: { used: 1, limit: 1 },
    });
  });

  it('counts links, live keys and this UTC month’s non-bot clicks from the rollups of this organization only', async () => {
    const org = await seedOrganization(env, { tier: 'PRO' });
    const other = await seedOrganization(env, { tier: 'PRO' });
    const a = await addLink(org, `u${Date.now().toString(36)}a`);
    const b = await addLink(org, `u${Date.now().toString(36)}b`);
    const foreign = await addLink(other, `u${Date.now().toString(36)}c`);
    await env.prisma.clickRollup.createMany({
      data: [
        { organizationId: org.organization.id, linkId: a, day: utcDay(0, 1), dimension: 'total', value: '', clicks: 5 },
        { organizationId: org.organization.id, linkId: b, day: utcDay(0, 1), dimension: 'total', value: '', clicks: 7 },
        { organizationId: org.organization.id, linkId: a, day: utcDay(0, 1), dimension: 'country', value: 'US', clicks: 5 },
        { organizationId: org.organization.id, linkId: a, day: utcDay(0, 1), dimension: 'bot', value: '', clicks: 50 },
        { organizationId: org.organization.id, linkId: a, day: utcDay(-1, 28), dimension: 'total', value: '', clicks: 100 },
        { organizationId: other.organization.id, linkId: foreign, day: utcDay(0, 1), dimension: 'total', value: '', clicks: 9 },
      ],
    });
    const created = await request(server.url).post('/api/keys').set(authHeader(org.owner.jwt)).send({ name: 'x' }).expect(201);
    await request(server.url).post('/api/keys').set(authHeader(org.owner.jwt)).send({ name: 'y' }).expect(201);
    await request(server.url).delete(`/api/keys/${created.body.id}`).set(authHeader(org.owner.jwt)).expect(204);

    const res = await request(server.url).get('/api/usage').set(authHeader(org.owner.jwt)).expect(200);
    expect(res.body).toEqual({
      tier: 'PRO',
      links: { used: 2, limit: 25000 },
      clicksThisMonth: { used: 12, limit: 100000 },
      apiKeys: { used: 2, limit: 3 },
    });
  });

  it('answers null limits on UNLIMITED, and any role may read it', async () => {
    const org = await seedOrganization(env, { tier: 'UNLIMITED' });
    const res = await request(server.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
    expect(res.body).toEqual({
      tier: 'UNLIMITED',
      links: { used: 0, limit: null },
      clicksThisMonth: { used: 0, limit: null },
      apiKeys: { used: 1, limit: null },
    });
  });

  it('follows PLAN_LIMITS overrides', async () => {
    const custom = await startApp(createApiApp, env.withOverrides({ PLAN_LIMITS: JSON.stringify({ FREE: { links: 5, apiKeys: 2, clicksPerMonth: null } }) }));
    try {
      const org = await seedOrganization(env);
      const res = await request(custom.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
      expect(res.body).toEqual({ tier: 'FREE', links: { used: 0, limit: 5 }, clicksThisMonth: { used: 0, limit: null }, apiKeys: { used: 1, limit: 2 } });
      await request(custom.url).post('/api/keys').set(authHeader(org.owner.jwt)).send({ name: 'second' }).expect(201);
    } finally {
      await custom.close();
    }
  });

  it('sees a tier change made by the operator on the next request', async () => {
    const org = await seedOrganization(env);
    await request(server.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
    await server.app.get(AccountsService).setTier(org.organization.id, 'BUSINESS');
    const res = await request(server.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
    expect(res.body.tier).toBe('BUSINESS');
  });

  it('needs a credential', async () => {
    const res = await request(server.url).get('/api/usage').expect(401);
    expect(res.body).toEqual({ error: 'Unauthorized', message: 'Missing or invalid API key', statusCode: 401 });
  });
});
