import { clientAs, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const lacks = (scope: string) => ({ error: 'Forbidden', message: `API key lacks scope ${scope}`, statusCode: 403 });
const validation = (fields: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: fields });

describe('API key scopes and expiry (decisions §25)', () => {
  let env: TestEnv;
  let server: RunningApp;
  let org: SeededOrganization;

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    server = await startApp(createApiApp, env.config);
    org = await seedOrganization(env, { tier: 'UNLIMITED' });
    link = { templateId: org.template.id, originalUrl: 'https://example.com/scoped' };
  });
  afterAll(async () => {
    await server?.close();
    await env?.teardown();
  });

  const as = (token: string) => clientAs(server.url, token);
  const newKey = async (body: object) => (await as(org.owner.jwt).post('/api/keys', { name: 'scoped', ...body }).expect(201)).body;
  let link: { templateId: string; originalUrl: string };

  it('a links:read key reads links but creating one answers 403 naming the scope, and analytics need analytics:read', async () => {
    const key = await newKey({ scopes: ['links:read'] });
    expect(key.scopes).toEqual(['links:read']);
    const created = await as(org.owner.jwt).post('/api/links', link).expect(201);
    await as(key.key).get('/api/links').expect(200);
    await as(key.key).get(`/api/links/${created.body.id}`).expect(200);
    expect((await as(key.key).post('/api/links', link).expect(403)).body).toEqual(lacks('links:write'));
    expect((await as(key.key).get(`/api/analytics/links/${created.body.id}`).expect(403)).body).toEqual(lacks('analytics:read'));
    expect((await as(key.key).post('/api/domains', { domain: 'scoped.example' }).expect(403)).body).toEqual(lacks('domains:write'));
    expect((await as(key.key).get('/api/webhooks').expect(403)).body).toEqual(lacks('webhooks:write'));
    const lead = { clickId: 'x', eventName: 'signup', customerExternalId: 'c1' };
    expect((await as(key.key).post('/api/track/lead', lead).expect(403)).body).toEqual(lacks('conversions:write'));
    // Keys stay JWT-only whatever the scopes.
    expect((await as(key.key).get('/api/keys').expect(403)).body.message).toBe('This endpoint requires a dashboard session');
    // The session that made the key is not limited by scopes.
    await as(org.owner.jwt).get(`/api/analytics/links/${created.body.id}`).expect(200);
  });

  it('rescoping applies from the next request; `all` alone is stored when listed with others', async () => {
    const key = await newKey({ scopes: ['analytics:read'] });
    expect((await as(key.key).post('/api/links', link).expect(403)).body).toEqual(lacks('links:write'));
    const updated = await as(org.owner.jwt).patch(`/api/keys/${key.id}`, { scopes: ['links:write', 'links:read'] }).expect(200);
    expect(updated.body.scopes).toEqual(['links:read', 'links:write']);
    await as(key.key).post('/api/links', link).expect(201);
    const all = await as(org.owner.jwt).patch(`/api/keys/${key.id}`, { scopes: ['links:read', 'all'] }).expect(200);
    expect(all.body.scopes).toEqual(['all']);
    await as(key.key).get('/api/webhooks').expect(200);
  });

  it('an expired key answers 401 `API key has expired`; clearing the expiry revives it', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const key = await newKey({ expiresAt });
    expect(key.expiresAt).toBe(expiresAt);
    await as(key.key).get('/api/links').expect(200);
    await new Promise((r) => setTimeout(r, 1600));
    const expired = { error: 'Unauthorized', message: 'API key has expired', statusCode: 401 };
    expect((await as(key.key).get('/api/links').expect(401)).body).toEqual(expired);
    expect((await as(key.key).post('/api/links', link).expect(401)).body).toEqual(expired);
    const cleared = await as(org.owner.jwt).patch(`/api/keys/${key.id}`, { expiresAt: null }).expect(200);
    expect(cleared.body.expiresAt).toBeNull();
    await as(key.key).get('/api/links').expect(200);
  });

  it('records lastUsedAt and lastUsedIp, shown by the listing', async () => {
    const key = await newKey({});
    await as(key.key).get('/api/links').expect(200);
    let item: { lastUsedAt: string | null; lastUsedIp: string | null } | undefined;
    for (let i = 0; i < 50 && !item?.lastUsedAt; i++) {
      await new Promise((r) => setTimeout(r, 20));
      item = (await as(org.owner.jwt).get('/api/keys').expect(200)).body.keys.find((k: { id: string }) => k.id === key.id);
    }
    expect(item?.lastUsedAt).toEqual(expect.any(String));
    expect(item?.lastUsedIp).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  it.each([
    ['an unknown scope', { scopes: ['links'] }, { scopes: 'Must be a non-empty list of: links:read, links:write, analytics:read, conversions:write, domains:write, webhooks:write, all' }],
    ['an empty scope list', { scopes: [] }, { scopes: 'Must be a non-empty list of: links:read, links:write, analytics:read, conversions:write, domains:write, webhooks:write, all' }],
    ['a past expiry', { expiresAt: '2020-01-01T00:00:00Z' }, { expiresAt: 'Must be a future date' }],
    ['a malformed expiry', { expiresAt: 'tomorrow' }, { expiresAt: 'Must be an ISO 8601 date' }],
  ])('refuses %s with 400 on create and update', async (_label, body, fields) => {
    expect((await as(org.owner.jwt).post('/api/keys', { name: 'x', ...body }).expect(400)).body).toEqual(validation(fields));
    expect((await as(org.owner.jwt).patch(`/api/keys/${org.owner.apiKeyId}`, body).expect(400)).body).toEqual(validation(fields));
  });

  it('an empty PATCH answers 400 `No updates provided`', async () => {
    const res = await as(org.owner.jwt).patch(`/api/keys/${org.owner.apiKeyId}`, {}).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
  });
});
