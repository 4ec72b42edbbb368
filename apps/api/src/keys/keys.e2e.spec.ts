import { createHash } from 'node:crypto';
import request from 'supertest';
import { addMember, appEnv, authHeader, closeAll, RunningApp, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const notFound = { error: 'Not Found', message: 'API key not found', statusCode: 404 };

describe('API keys (/api/keys)', () => {
  let env: TestEnv, server: RunningApp, pro: SeededOrganization;

  beforeAll(async () => {
    ({ env, server } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false' }));
    pro = await seedOrganization(env, { tier: 'PRO' });
  });
  afterAll(() => closeAll(server, env));

  const api = (jwt: string) => ({
    get: (p: string) => request(server.url).get(p).set(authHeader(jwt)),
    post: (p: string, b?: object) => request(server.url).post(p).set(authHeader(jwt)).send(b),
    patch: (p: string, b?: object) => request(server.url).patch(p).set(authHeader(jwt)).send(b),
    delete: (p: string) => request(server.url).delete(p).set(authHeader(jwt)),
  });
  const liveKeys = (organizationId: string) => env.prisma.apiKey.count({ where: { organizationId, revokedAt: null } });

  it('creates a key, shows the secret once and stores only its SHA-256', async () => {
    const res = await api(pro.owner.jwt).post('/api/keys', { name: '  CI pipeline ' }).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(UUID),
      name: 'CI pipeline',
      key: expect.stringMatching(/^dl_[0-9a-f]{64}$/),
      createdAt: expect.stringMatching(ISO),
      lastUsedAt: null,
      scopes: ['all'],
      expiresAt: null,
    });
    const row = await env.prisma.apiKey.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.keyHash).toBe(createHash('sha256').update(res.body.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(res.body.key.slice(3));
    expect(row.userId).toBe(pro.owner.user.id);

    const list = await api(pro.owner.jwt).get('/api/keys').expect(200);
    const item = list.body.keys.find((k: { id: string }) => k.id === res.body.id);
    expect(item).toEqual({
      id: res.body.id,
      name: 'CI pipeline',
      keyPrefix: `${res.body.key.slice(0, 11)}…`,
      createdAt: res.body.createdAt,
      lastUsedAt: null,
      lastUsedIp: null,
      scopes: ['all'],
      expiresAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    await api(res.body.key).get('/api/usage').expect(200);
    await api(pro.owner.jwt).delete(`/api/keys/${res.body.id}`).expect(204);
  });

  it('lists newest first', async () => {
    const org = await seedOrganization(env, { tier: 'BUSINESS' });
    const a = await api(org.owner.jwt).post('/api/keys', { name: 'a' }).expect(201);
    const b = await api(org.owner.jwt).post('/api/keys', { name: 'b' }).expect(201);
    const list = await api(org.owner.jwt).get('/api/keys').expect(200);
    expect(list.body.keys.map((k: { name: string }) => k.name)).toEqual(['b', 'a', 'seed key']);
    expect(list.body.keys[0].id).toBe(b.body.id);
    expect(list.body.keys[1].id).toBe(a.body.id);
  });

  it('renames with PATCH', async () => {
    const created = await api(pro.owner.jwt).post('/api/keys', { name: 'old' }).expect(201);
    const res = await api(pro.owner.jwt).patch(`/api/keys/${created.body.id}`, { name: 'new name' }).expect(200);
    expect(res.body).toEqual({ id: created.body.id, name: 'new name', keyPrefix: `${created.body.key.slice(0, 11)}…`, createdAt: created.body.createdAt, lastUsedAt: null, lastUsedIp: null, scopes: ['all'], expiresAt: null });
    await api(created.body.key).get('/api/usage').expect(200);
    await api(pro.owner.jwt).delete(`/api/keys/${created.body.id}`).expect(204);
  });

  // One refusal over HTTP; every rule of the name: apps/api/src/auth/auth.dto.spec.ts.
  it.each([
    ['a blank name', { name: '   ' }, { name: 'Must be 1-100 characters' }],
    ['an unknown field', { name: 'ok', permissions: ['links'] }, { permissions: 'Unknown field' }],
  ])('refuses %s with 400 (create and rename), writing nothing', async (_label, body, validation) => {
    const before = await liveKeys(pro.organization.id);
    const expected = { error: 'Bad Request', message: 'Validation error', statusCode: 400, validation };
    expect((await api(pro.owner.jwt).post('/api/keys', body).expect(400)).body).toEqual(expected);
    expect((await api(pro.owner.jwt).patch(`/api/keys/${pro.owner.apiKeyId}`, body).expect(400)).body).toEqual(expected);
    expect(await liveKeys(pro.organization.id)).toBe(before);
    const row = await env.prisma.apiKey.findUniqueOrThrow({ where: { id: pro.owner.apiKeyId } });
    expect(row.name).toBe('seed key');
  });

  it('deletes (revokes) a key: gone from the list, 401 on the next request, 404 on a second delete', async () => {
    const created = await api(pro.owner.jwt).post('/api/keys', { name: 'temp' }).expect(201);
    await api(created.body.key).get('/api/usage').expect(200);
    await api(pro.owner.jwt).delete(`/api/keys/${created.body.id}`).expect(204);
    const res = await api(created.body.key).get('/api/usage').expect(401);
    expect(res.body).toEqual({ error: 'Unauthorized', message: 'API key has been deleted or revoked', statusCode: 401 });
    const list = await api(pro.owner.jwt).get('/api/keys').expect(200);
    expect(list.body.keys.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    expect((await api(pro.owner.jwt).delete(`/api/keys/${created.body.id}`).expect(404)).body).toEqual(notFound);
    expect((await api(pro.owner.jwt).patch(`/api/keys/${created.body.id}`, { name: 'x' }).expect(404)).body).toEqual(notFound);
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '1'])('unknown id %s: 404 API key not found', async (id) => {
    expect((await api(pro.owner.jwt).patch(`/api/keys/${id}`, { name: 'x' }).expect(404)).body).toEqual(notFound);
    expect((await api(pro.owner.jwt).delete(`/api/keys/${id}`).expect(404)).body).toEqual(notFound);
  });

  describe('plan key limits', () => {
    it('FREE allows 1 key: the second gets 403 and nothing is written', async () => {
      const free = await seedOrganization(env);
      const res = await api(free.owner.jwt).post('/api/keys', { name: 'second' }).expect(403);
      expect(res.body).toEqual({ error: 'Forbidden', message: 'API key limit reached for your plan', statusCode: 403 });
      expect(await liveKeys(free.organization.id)).toBe(1);
      // Revoked keys do not count.
      await api(free.owner.jwt).delete(`/api/keys/${free.owner.apiKeyId}`).expect(204);
      await api(free.owner.jwt).post('/api/keys', { name: 'replacement' }).expect(201);
    });

    it('PRO allows 3, even under concurrent creation', async () => {
      const org = await seedOrganization(env, { tier: 'PRO' });
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => api(org.owner.jwt).post('/api/keys', { name: `k${i}` })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403, 403, 403, 403]);
      expect(await liveKeys(org.organization.id)).toBe(3);
    });

    it('UNLIMITED has no key limit', async () => {
      const org = await seedOrganization(env, { tier: 'UNLIMITED' });
      for (let i = 0; i < 12; i++) await api(org.owner.jwt).post('/api/keys', { name: `k${i}` }).expect(201);
    });
  });

  describe('who sees which keys', () => {
    it('members and viewers manage only their own keys; owners and admins all of them', async () => {
      const org = await seedOrganization(env, { tier: 'UNLIMITED' });
      const admin = await addMember(env, org.organization.id, 'ADMIN');
      const member = await addMember(env, org.organization.id, 'MEMBER');
      const viewer = await addMember(env, org.organization.id, 'VIEWER');
      // Decisions §14: Members and above create keys through the API; a Viewer's key comes from the operator CLI.
      const refused = await api(viewer.jwt).post('/api/keys', { name: 'viewer key' }).expect(403);
      expect(refused.body).toEqual({ error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 });
      const mine = { body: { id: viewer.apiKeyId, key: viewer.apiKey } };
      const memberKey = await api(member.jwt).post('/api/keys', { name: 'member key' }).expect(201);

      const viewerList = await api(viewer.jwt).get('/api/keys').expect(200);
      expect(viewerList.body.keys.map((k: { id: string }) => k.id)).toEqual([viewer.apiKeyId]);
      const adminList = await api(admin.jwt).get('/api/keys').expect(200);
      expect(adminList.body.keys).toHaveLength(5);
      expect(adminList.body.keys.map((k: { id: string }) => k.id)).toContain(memberKey.body.id);

      expect((await api(member.jwt).delete(`/api/keys/${org.owner.apiKeyId}`).expect(404)).body).toEqual(notFound);
      expect((await api(member.jwt).patch(`/api/keys/${viewer.apiKeyId}`, { name: 'x' }).expect(404)).body).toEqual(notFound);
      await api(viewer.jwt).patch(`/api/keys/${mine.body.id}`, { name: 'renamed' }).expect(200);
      await api(admin.jwt).delete(`/api/keys/${member.apiKeyId}`).expect(204);
      await api(member.apiKey).get('/api/usage').expect(401);
      // A viewer's key acts as a viewer.
      await api(mine.body.key).get('/api/usage').expect(200);
    });
  });

  it("another organization's key answers 404 like a missing one", async () => {
    const other = await seedOrganization(env, { tier: 'PRO' });
    expect((await api(other.owner.jwt).patch(`/api/keys/${pro.owner.apiKeyId}`, { name: 'mine now' }).expect(404)).body).toEqual(notFound);
    expect((await api(other.owner.jwt).delete(`/api/keys/${pro.owner.apiKeyId}`).expect(404)).body).toEqual(notFound);
    const list = await api(other.owner.jwt).get('/api/keys').expect(200);
    expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([other.owner.apiKeyId]);
    await api(pro.owner.apiKey).get('/api/usage').expect(200);
  });
});
