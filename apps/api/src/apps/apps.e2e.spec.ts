import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { createIngestApp } from '@dl/apps/ingest';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickPipeline } from '@dl/clicks';
import { addMember, authHeader, createTestEnv, eventually, rawClick, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';

describe('Apps and pixel sites (api) with ingestion', () => {
  let env: TestEnv;
  let api: RunningApp;
  let ingest: RunningApp;
  let worker: RunningApp;
  let org: SeededOrganization;
  let other: SeededOrganization;
  let admin: string;
  let member: string;

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    [api, ingest, worker] = await Promise.all([
      startApp(createApiApp, env.config),
      startApp(createIngestApp, env.config),
      startApp(createWorkerApp, env.config),
    ]);
    org = await seedOrganization(env, { tier: 'PRO' });
    other = await seedOrganization(env, { tier: 'PRO' });
    admin = (await addMember(env, org.organization.id, 'ADMIN')).apiKey;
    member = (await addMember(env, org.organization.id, 'MEMBER')).apiKey;
  });

  afterAll(async () => {
    await Promise.all([api?.close(), ingest?.close(), worker?.close()]);
    await env?.teardown();
  });

  const iosApp = { name: 'Shop iOS', platform: 'ios', bundleId: 'com.example.shop', teamId: 'ABCDE12345', appStoreUrl: 'https://apps.apple.com/app/id123' };

  describe('apps', () => {
    it('creates an app with a dla_ token shown once, stored hashed', async () => {
      const res = await request(api.url).post('/api/apps').set(authHeader(admin)).send(iosApp).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Shop iOS',
        platform: 'ios',
        bundleId: 'com.example.shop',
        packageName: null,
        appStoreUrl: 'https://apps.apple.com/app/id123',
        teamId: 'ABCDE12345',
        sha256Fingerprints: [],
        tokenPrefix: expect.stringMatching(/^dla_[0-9a-f]{8}…$/),
        createdAt: expect.any(String),
        lastSeenAt: null,
        appToken: expect.stringMatching(/^dla_[0-9a-f]{48}$/),
      });
      const row = await env.prisma.app.findUnique({ where: { id: res.body.id } });
      expect(row?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row?.tokenHash).not.toContain(res.body.appToken.slice(4));

      const list = await request(api.url).get('/api/apps').set(authHeader(admin)).expect(200);
      expect(list.body).toEqual([expect.objectContaining({ id: res.body.id, tokenPrefix: res.body.tokenPrefix })]);
      expect(list.body[0]).not.toHaveProperty('appToken');
    });

    it('validates the body', async () => {
      const res = await request(api.url).post('/api/apps').set(authHeader(admin)).send({ name: '', platform: 'web', sha256Fingerprints: ['zz'] }).expect(400);
      expect(res.body).toEqual({
        error: 'Bad Request',
        message: 'Validation error',
        statusCode: 400,
        validation: { name: 'Must be 1-100 characters', platform: 'Must be one of: ios, android', sha256Fingerprints: 'Each must be a SHA-256 fingerprint (32 colon-separated hex bytes)' },
      });
      const android = await request(api.url).post('/api/apps').set(authHeader(admin)).send({ name: 'Shop Android', platform: 'android' }).expect(400);
      expect(android.body.validation).toEqual({ packageName: 'Must be a Java package name' });
    });

    it('is Admin only (Member → 403) and scoped to the organization (foreign id → 404)', async () => {
      const denied = await request(api.url).post('/api/apps').set(authHeader(member)).send(iosApp).expect(403);
      expect(denied.body).toEqual({ error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 });
      await request(api.url).get('/api/apps').set(authHeader(member)).expect(403);
      await request(api.url).get('/api/apps').expect(401);

      const mine = await request(api.url).post('/api/apps').set(authHeader(admin)).send(iosApp).expect(201);
      const foreign = await request(api.url).delete(`/api/apps/${mine.body.id}`).set(authHeader(other.owner.apiKey)).expect(404);
      expect(foreign.body).toEqual({ error: 'Not Found', message: 'App not found', statusCode: 404 });
      expect((await request(api.url).get('/api/apps').set(authHeader(other.owner.apiKey)).expect(200)).body).toEqual([]);
      await request(api.url).delete(`/api/apps/${randomUUID()}`).set(authHeader(admin)).expect(404);
      await request(api.url).delete('/api/apps/not-a-uuid').set(authHeader(admin)).expect(404);
    });

    it('revokes a token at once on delete (the ingest app answers 401 within 2 s)', async () => {
      const created = await request(api.url).post('/api/apps').set(authHeader(admin)).send(iosApp).expect(201);
      const send = () =>
        request(ingest.url).post('/api/sdk/v1/event').set(authHeader(created.body.appToken)).send({ installId: randomUUID(), eventName: 'tap' });
      await send().expect(202);
      expect((await request(api.url).delete(`/api/apps/${created.body.id}`).set(authHeader(admin)).expect(200)).body).toEqual({ success: true });
      await new Promise((r) => setTimeout(r, 2100));
      const res = await send().expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', message: 'Invalid app token', statusCode: 401 });
      await request(api.url).delete(`/api/apps/${created.body.id}`).set(authHeader(admin)).expect(404);
      const list = await request(api.url).get('/api/apps').set(authHeader(admin)).expect(200);
      expect(list.body.map((a: { id: string }) => a.id)).not.toContain(created.body.id);
    });
  });

  describe('pixel sites and the pixel', () => {
    it('creates, lists and deletes sites (Admin, scoped), and the pixel ties conversions to links', async () => {
      const created = await request(api.url).post('/api/pixels').set(authHeader(org.owner.apiKey)).send({ name: 'Shop', domain: 'Shop.Example.com' }).expect(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: 'Shop',
        domain: 'shop.example.com',
        siteKey: expect.stringMatching(/^dlp_[0-9a-f]{32}$/),
        createdAt: expect.any(String),
        lastSeenAt: null,
      });
      const bad = await request(api.url).post('/api/pixels').set(authHeader(admin)).send({ name: 'x', domain: 'https://a b' }).expect(400);
      expect(bad.body.validation).toEqual({ domain: 'Must be a valid domain' });
      await request(api.url).post('/api/pixels').set(authHeader(member)).send({ name: 'x', domain: 'a.com' }).expect(403);
      expect((await request(api.url).get('/api/pixels').set(authHeader(admin)).expect(200)).body).toEqual([created.body]);
      const foreign = await request(api.url).delete(`/api/pixels/${created.body.id}`).set(authHeader(other.owner.apiKey)).expect(404);
      expect(foreign.body).toEqual({ error: 'Not Found', message: 'Pixel site not found', statusCode: 404 });

      // The pixel: script, CORS, page view and a conversion carrying dl_click.
      const script = await request(ingest.url).get('/api/pixel/v1/script.js').expect(200);
      expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(script.text).toContain('dl_click');
      const preflight = await request(ingest.url)
        .options('/api/pixel/v1/event')
        .set('Origin', 'https://shop.example.com')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'content-type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');

      const link = await env.prisma.link.create({
        data: { organizationId: org.organization.id, userId: org.owner.user.id, templateId: org.template.id, shortCode: `px${randomUUID().slice(0, 6)}`, originalUrl: 'https://shop.example.com/' },
      });
      const raw = rawClick({ id: link.id, organizationId: org.organization.id });
      await worker.app.get(ClickPipeline).store([raw]);
      const pv = await request(ingest.url)
        .post('/api/pixel/v1/event')
        .set('Origin', 'https://shop.example.com')
        .send({ siteKey: created.body.siteKey, type: 'pageview', url: `https://shop.example.com/?dl_click=${raw.id}` })
        .expect(202);
      expect(pv.body).toEqual({ accepted: true });
      expect(pv.headers['access-control-allow-origin']).toBe('*');
      expect(pv.headers['x-ratelimit-limit']).toBe('60000');
      await request(ingest.url)
        .post('/api/pixel/v1/event')
        .send({ siteKey: created.body.siteKey, type: 'conversion', url: 'https://shop.example.com/thanks', clickId: raw.id, value: 49.5, currency: 'USD' })
        .expect(202);
      const conversion = await eventually(() => env.prisma.pixelEvent.findFirst({ where: { siteId: created.body.id, type: 'conversion' } }));
      expect(conversion).toMatchObject({ organizationId: org.organization.id, clickId: raw.id, linkId: link.id, currency: 'USD' });
      expect(Number(conversion.value)).toBe(49.5);

      const badKey = await request(ingest.url).post('/api/pixel/v1/event').send({ siteKey: `dlp_${'0'.repeat(32)}`, type: 'pageview', url: 'https://a.com/' }).expect(401);
      expect(badKey.body).toEqual({ error: 'Unauthorized', message: 'Invalid site key', statusCode: 401 });
      const badCurrency = await request(ingest.url)
        .post('/api/pixel/v1/event')
        .send({ siteKey: created.body.siteKey, type: 'conversion', url: 'https://a.com/', value: 1, currency: 'ABC' })
        .expect(400);
      expect(badCurrency.body.validation).toEqual({ currency: 'Must be an ISO 4217 currency code' });

      await request(api.url).delete(`/api/pixels/${created.body.id}`).set(authHeader(admin)).expect(200);
      await new Promise((r) => setTimeout(r, 2100));
      await request(ingest.url).post('/api/pixel/v1/event').send({ siteKey: created.body.siteKey, type: 'pageview', url: 'https://a.com/' }).expect(401);
    });
  });
});
