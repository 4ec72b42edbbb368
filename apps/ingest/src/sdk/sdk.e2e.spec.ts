import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { createIngestApp } from '@dl/apps/ingest';
import { createWorkerApp } from '@dl/apps/worker';
import { ClickPipeline } from '@dl/clicks';
import { Tier } from '@dl/platform/db';
import { RedisService } from '@dl/platform/redis';
import { hashToken, InstallAnswerStore } from '@dl/sdk';
import { appEnv, ClickFixtures, closeAll, eventually, rawClick, RunningApp, SdkFixtures, startApp, TestEnv, USER_AGENTS } from '@dl/testing';

const IP_HEADER = 'x-test-client-ip';

describe('SDK ingestion (ingest app + worker)', () => {
  let env: TestEnv, ingest: RunningApp, worker: RunningApp, clicksFx: ClickFixtures, sdkFx: SdkFixtures, orgId: string;
  let app: { id: string; token: string };

  const device = { platform: 'ios', osVersion: '17.5', language: 'en-US' };
  const post = (path: string, body: unknown, token = app.token, ip = '198.51.100.10') =>
    request(ingest.url).post(`/api/sdk/v1/${path}`).set('Authorization', `Bearer ${token}`).set(IP_HEADER, ip).send(body as object);

  /** A click stored through the click pipeline's own code (enrichment computes the fingerprint). */
  async function click(link: { id: string }, overrides: Parameters<typeof rawClick>[1] = {}): Promise<string> {
    const raw = rawClick({ id: link.id, organizationId: orgId }, { userAgent: USER_AGENTS.iPhone, acceptLanguage: 'en-GB,en;q=0.9', ...overrides });
    await worker.app.get(ClickPipeline).store([raw]);
    return raw.id;
  }

  beforeAll(async () => {
    ({ env, server: ingest } = await appEnv(createIngestApp, { TRUSTED_CLIENT_IP_HEADER: IP_HEADER }));
    worker = await startApp(createWorkerApp, env.config);
    clicksFx = new ClickFixtures(env.prisma);
    sdkFx = new SdkFixtures(env.prisma);
    orgId = (await clicksFx.organization(Tier.PRO)).id;
    app = await sdkFx.app(orgId);
  });

  afterAll(() => closeAll(ingest, worker, env));

  async function deepLink(opts: { windowHours?: number } = {}) {
    const link = await clicksFx.link(orgId);
    await env.prisma.link.update({
      where: { id: link.id },
      data: { deepLinkPath: '/product/42', deepLinkParameters: { promo: 'spring' }, attributionWindowHours: opts.windowHours ?? 168 },
    });
    return link;
  }

  describe('install attribution', () => {
    it('attributes an install to the iOS click with the same fingerprint, idempotently, and stores it', async () => {
      const link = await deepLink();
      const clickId = await click(link, { ip: '203.0.113.7' });
      const installId = randomUUID();
      const res = await post('install', { installId, ...device, deviceModel: 'iPhone15,2', appVersion: '2.1.0' }, app.token, '203.0.113.7').expect(200);
      expect(res.body).toEqual({
        attributed: true,
        linkId: link.id,
        shortCode: link.shortCode,
        deepLinkPath: '/product/42',
        deepLinkParameters: { promo: 'spring' },
        matchType: 'fingerprint',
      });
      expect(res.headers['x-ratelimit-limit']).toBe('60000');
      const again = await post('install', { installId, ...device }, app.token, '10.9.9.9').expect(200);
      expect(again.body).toEqual(res.body);

      const row = await eventually(() => env.prisma.install.findFirst({ where: { installId } }));
      expect(row).toMatchObject({ organizationId: orgId, appId: app.id, linkId: link.id, clickId, matchType: 'fingerprint', ambiguous: false, platform: 'ios' });
      expect(row.attributedAt).toBeInstanceOf(Date);
      // Once stored (and the Redis copy gone), the row answers the same.
      await worker.app.get(RedisService).client.del(worker.app.get(RedisService).key('sdk', 'install', app.id, installId));
      const third = await post('install', { installId, ...device }).expect(200);
      expect(third.body).toEqual(res.body);
      expect(await env.prisma.install.count({ where: { installId } })).toBe(1);
    });

    it('gives concurrent first calls of one install the same answer', async () => {
      const link = await deepLink();
      await click(link, { ip: '203.0.113.33' });
      const installId = randomUUID();
      // One call from the device's network (matches), one from elsewhere (would not): one decision holds.
      const answers = await Promise.all([
        post('install', { installId, ...device }, app.token, '203.0.113.33'),
        post('install', { installId, ...device }, app.token, '198.51.100.77'),
        post('install', { installId, ...device }, app.token, '203.0.113.33'),
      ]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers[1].body).toEqual(answers[0].body);
      expect(answers[2].body).toEqual(answers[0].body);
      const row = await eventually(() => env.prisma.install.findFirst({ where: { installId } }));
      expect(row.linkId).toBe(answers[0].body.linkId);
      expect(await env.prisma.install.count({ where: { installId } })).toBe(1);
    });

    it('does not attribute a click older than its link window', async () => {
      const link = await deepLink({ windowHours: 1 });
      await click(link, { ip: '203.0.113.8', clickedAt: new Date(Date.now() - 2 * 3600_000).toISOString() });
      const installId = randomUUID();
      const res = await post('install', { installId, ...device }, app.token, '203.0.113.8').expect(200);
      expect(res.body).toEqual({ attributed: false, linkId: null, shortCode: null, deepLinkPath: null, deepLinkParameters: null, matchType: null });
      const row = await eventually(() => env.prisma.install.findFirst({ where: { installId } }));
      expect(row).toMatchObject({ linkId: null, matchType: null, attributedAt: null });
    });

    it('does not attribute across a different OS major version or language', async () => {
      const link = await deepLink();
      await click(link, { ip: '203.0.113.9' });
      const res = await post('install', { installId: randomUUID(), ...device, osVersion: '18.0' }, app.token, '203.0.113.9').expect(200);
      expect(res.body.attributed).toBe(false);
      const res2 = await post('install', { installId: randomUUID(), ...device, language: 'fr-FR' }, app.token, '203.0.113.9').expect(200);
      expect(res2.body.attributed).toBe(false);
    });

    it('attributes by clickId exactly, even when the fingerprint differs', async () => {
      const link = await deepLink();
      const clickId = await click(link, { ip: '192.0.2.1', userAgent: USER_AGENTS.macSafari });
      const installId = randomUUID();
      const res = await post('install', { installId, ...device, clickId }, app.token, '203.0.113.99').expect(200);
      expect(res.body).toMatchObject({ attributed: true, linkId: link.id, matchType: 'clickId' });
      const row = await eventually(() => env.prisma.install.findFirst({ where: { installId } }));
      expect(row).toMatchObject({ clickId, matchType: 'clickId' });
    });

    it('resolves two links clicked within the tie window to the most recent and flags the install', async () => {
      const older = await deepLink();
      const newer = await deepLink();
      await click(older, { ip: '203.0.113.50', clickedAt: new Date(Date.now() - 20_000).toISOString() });
      await click(newer, { ip: '203.0.113.50', clickedAt: new Date(Date.now() - 5_000).toISOString() });
      const installId = randomUUID();
      const res = await post('install', { installId, ...device }, app.token, '203.0.113.50').expect(200);
      expect(res.body).toMatchObject({ attributed: true, linkId: newer.id });
      const row = await eventually(() => env.prisma.install.findFirst({ where: { installId } }));
      expect(row.ambiguous).toBe(true);
    });

    it('ignores clicks of another organization', async () => {
      const other = await clicksFx.organization(Tier.PRO);
      const foreignLink = await clicksFx.link(other.id);
      const raw = rawClick({ id: foreignLink.id, organizationId: other.id }, { ip: '203.0.113.60', userAgent: USER_AGENTS.iPhone });
      await worker.app.get(ClickPipeline).store([raw]);
      const res = await post('install', { installId: randomUUID(), ...device, clickId: raw.id }, app.token, '203.0.113.60').expect(200);
      expect(res.body.attributed).toBe(false);
    });
  });

  describe('authentication and rate limit', () => {
    it('answers 401 without a token, with a wrong one, and soon after revocation', async () => {
      const body = { installId: randomUUID(), ...device };
      const none = await request(ingest.url).post('/api/sdk/v1/install').send(body).expect(401);
      expect(none.body).toEqual({ error: 'Unauthorized', message: 'Missing or invalid app token', statusCode: 401 });
      const wrong = await post('install', body, `dla_${'0'.repeat(48)}`).expect(401);
      expect(wrong.body).toEqual({ error: 'Unauthorized', message: 'Invalid app token', statusCode: 401 });
      await post('event', { installId: body.installId, eventName: 'x' }, 'not-a-token').expect(401);

      const doomed = await sdkFx.app(orgId);
      await post('event', { installId: body.installId, eventName: 'x' }, doomed.token).expect(202);
      await env.prisma.app.update({ where: { id: doomed.id }, data: { revokedAt: new Date() } });
      await worker.app.get(RedisService).client.del(worker.app.get(RedisService).key('sdk', 'cred', 'app', hashToken(doomed.token)));
      await new Promise((r) => setTimeout(r, 2100));
      await post('event', { installId: body.installId, eventName: 'x' }, doomed.token).expect(401);
    });

    it('limits each token with the API headers and 429 retryAfter', async () => {
      const limited = await startApp(createIngestApp, env.withOverrides({ INGEST_RATE_LIMIT_PER_MINUTE: '3', TRUSTED_CLIENT_IP_HEADER: IP_HEADER }));
      try {
        const t = await sdkFx.app(orgId);
        const send = () =>
          request(limited.url).post('/api/sdk/v1/event').set('Authorization', `Bearer ${t.token}`).send({ installId: randomUUID(), eventName: 'tap' });
        const first = await send().expect(202);
        expect(first.headers['x-ratelimit-limit']).toBe('3');
        expect(first.headers['x-ratelimit-remaining']).toBe('2');
        expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
        await send().expect(202);
        await send().expect(202);
        const over = await send().expect(429);
        expect(over.body).toEqual({ error: 'Too Many Requests', message: 'Too many requests, please retry later', statusCode: 429, retryAfter: expect.any(Number) });
        expect(over.body.retryAfter).toBeGreaterThanOrEqual(1);
        expect(over.headers['retry-after']).toBe(String(over.body.retryAfter));
        expect(over.headers['x-ratelimit-remaining']).toBe('0');
        // Another token is not affected.
        const fresh = await sdkFx.app(orgId);
        await request(limited.url).post('/api/sdk/v1/event').set('Authorization', `Bearer ${fresh.token}`).send({ installId: randomUUID(), eventName: 'tap' }).expect(202);
      } finally {
        await limited.close();
      }
    });
  });

  describe('events and sessions', () => {
    it('stores events with the install → click → link chain, revenue, and keeps unattributed ones aside', async () => {
      const link = await deepLink();
      const clickId = await click(link, { ip: '203.0.113.70' });
      const installId = randomUUID();
      await post('install', { installId, ...device }, app.token, '203.0.113.70').expect(200);
      // Sent right away: the install row may not be stored yet; the ingest decision attributes it.
      const ts = new Date(Date.now() - 3600_000).toISOString();
      const r1 = await post('event', { installId, eventName: 'purchase_started', properties: { sku: 'A1' }, timestamp: ts }).expect(202);
      expect(r1.body).toEqual({ accepted: true, id: expect.any(String) });
      await post('event', { installId, eventName: 'revenue', properties: { revenue: 9.99, currency: 'EUR', sku: 'A1' } }).expect(202);
      const stranger = randomUUID();
      const r3 = await post('event', { installId: stranger, eventName: 'purchase_started' }).expect(202);

      const first = await eventually(() => env.prisma.inAppEvent.findUnique({ where: { id: r1.body.id } }));
      expect(first).toMatchObject({ organizationId: orgId, appId: app.id, installId, linkId: link.id, clickId, attributed: true, eventName: 'purchase_started', eventData: { sku: 'A1' } });
      expect(first.eventTimestamp.toISOString()).toBe(ts);
      const revenue = await eventually(() => env.prisma.inAppEvent.findFirst({ where: { installId, eventName: 'revenue' } }));
      expect(Number(revenue.revenue)).toBe(9.99);
      expect(revenue.currency).toBe('EUR');
      const orphan = await eventually(() => env.prisma.inAppEvent.findUnique({ where: { id: r3.body.id } }));
      expect(orphan).toMatchObject({ attributed: false, linkId: null, installId: stranger });

      const daily = await env.prisma.inAppEventDaily.findMany({ where: { organizationId: orgId }, orderBy: { eventName: 'asc' } });
      expect(daily.map((d) => [d.eventName, d.events, Number(d.revenue)])).toEqual([
        ['purchase_started', 1, 0],
        ['revenue', 1, 9.99],
      ]);
    });

    it('stores an event once when the SDK resends its own event id', async () => {
      const installId = randomUUID();
      const eventId = randomUUID();
      const a = await post('event', { installId, eventName: 'level_up', eventId }).expect(202);
      const b = await post('event', { installId, eventName: 'level_up', eventId }).expect(202);
      expect(a.body.id).toBe(b.body.id);
      await eventually(() => env.prisma.inAppEvent.findUnique({ where: { id: a.body.id } }));
      await new Promise((r) => setTimeout(r, 300));
      expect(await env.prisma.inAppEvent.count({ where: { installId } })).toBe(1);
    });

    it('accepts a batch of events all-or-nothing', async () => {
      const installId = randomUUID();
      const ok = await post('events', { events: [{ installId, eventName: 'a' }, { installId, eventName: 'b' }] }).expect(202);
      expect(ok.body).toEqual({ accepted: 2, ids: [expect.any(String), expect.any(String)] });
      const bad = await post('events', { events: [{ installId, eventName: 'c' }, { installId, eventName: 'revenue', properties: { revenue: 'x', currency: 'EUR' } }] }).expect(400);
      expect(bad.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { 'events[1].properties.revenue': 'Must be a number' } });
      await eventually(async () => (await env.prisma.inAppEvent.count({ where: { installId } })) === 2);
      await new Promise((r) => setTimeout(r, 300));
      expect(await env.prisma.inAppEvent.count({ where: { installId, eventName: 'c' } })).toBe(0);
    });

    it('records sessions on /open', async () => {
      const installId = randomUUID();
      const res = await post('open', { installId, url: 'myapp://product/42' }).expect(202);
      expect(res.body).toEqual({ accepted: true });
      const s = await eventually(() => env.prisma.appSession.findFirst({ where: { installId } }));
      expect(s).toMatchObject({ organizationId: orgId, appId: app.id, url: 'myapp://product/42' });
      expect((await env.prisma.app.findUnique({ where: { id: app.id } }))?.lastSeenAt).toBeInstanceOf(Date);
    });
  });

  describe('the one entry of the SDK routes (what every API route answers)', () => {
    it('keeps the request id, the CORS Vary, the rate-limit headers on a 400 and the route metrics', async () => {
      const res = await post('install', { installId: 'nope', platform: 'ios', osVersion: '17' }).set('X-Request-Id', 'req-sdk-1').expect(400);
      expect(res.headers['x-request-id']).toBe('req-sdk-1');
      expect(res.headers.vary).toBe('Origin');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-ratelimit-limit']).toBe('60000');
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { installId: 'Must be a valid UUID' } });
      const ok = await post('event', { installId: randomUUID(), eventName: 'tap' }).expect(202);
      expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const metrics = await request(ingest.url).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/http_requests_total\{method="POST",route="\/api\/sdk\/v1\/install",status="400"\} \d+/);
      expect(metrics.text).toMatch(/http_requests_total\{method="POST",route="\/api\/sdk\/v1\/event",status="202"\} \d+/);
    });

    it('matches paths as the router does, takes JSON only (415 before the token) and an absent body as empty', async () => {
      const event = { installId: randomUUID(), eventName: 'tap' };
      for (const path of ['/api/sdk/v1/event/', '/api/sdk/v1/%65vent?x=1']) {
        await request(ingest.url).post(path).set('Authorization', `Bearer ${app.token}`).send(event).expect(202);
      }
      await request(ingest.url).post('/api/sdk/v1/EVENT').set('Authorization', `Bearer ${app.token}`).send(event).expect(404);
      for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
        const res = await request(ingest.url).post('/api/sdk/v1/event').set('Content-Type', type).send('installId=x').expect(415);
        expect(res.body).toEqual({ error: 'Unsupported Media Type', message: 'Unsupported Media Type', statusCode: 415 });
      }
      const empty = await request(ingest.url).post('/api/sdk/v1/event').set('Authorization', `Bearer ${app.token}`).expect(400);
      expect(empty.body.validation).toEqual({ installId: 'Must be a valid UUID', eventName: 'Must be 1-100 characters' });
    });

    it('answers 413 for a body over 1 MB, declared or streamed', async () => {
      const big = JSON.stringify({ installId: randomUUID(), eventName: 'x', properties: { blob: 'x'.repeat(1024 * 1024) } });
      const declared = await post('event', big).set('Content-Type', 'application/json').expect(413);
      expect(declared.body).toEqual({ error: 'Payload Too Large', message: 'Payload too large', statusCode: 413 });
      const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${ingest.url}/api/sdk/v1/event`);
        const req = httpRequest(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${app.token}` } },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        for (let i = 0; i < 5; i++) req.write(big.slice(i * 300_000, (i + 1) * 300_000));
        req.end(big.slice(1_500_000));
      });
      expect(streamed.status).toBe(413);
      expect(JSON.parse(streamed.body)).toEqual({ error: 'Payload Too Large', message: 'Payload too large', statusCode: 413 });
    });

    it('refuses prototype poisoning like Fastify\'s JSON parser', async () => {
      const res = await post('event', '{"installId":"x","eventName":"x","__proto__":{"admin":true}}').set('Content-Type', 'application/json').expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid JSON body', statusCode: 400 });
    });

    it('reads while the limit is counted, but a limited install writes nothing', async () => {
      const limited = await startApp(createIngestApp, env.withOverrides({ INGEST_RATE_LIMIT_PER_MINUTE: '1', TRUSTED_CLIENT_IP_HEADER: IP_HEADER }));
      try {
        const t = await sdkFx.app(orgId);
        const send = (installId: string) =>
          request(limited.url).post('/api/sdk/v1/install').set('Authorization', `Bearer ${t.token}`).send({ installId, ...device });
        await send(randomUUID()).expect(200);
        const refused = randomUUID();
        const over = await send(refused).expect(429);
        expect(over.body).toMatchObject({ statusCode: 429, retryAfter: expect.any(Number) });
        expect(over.headers['x-ratelimit-remaining']).toBe('0');
        expect(await worker.app.get(InstallAnswerStore).get(t.id, refused)).toBeNull();
        await new Promise((r) => setTimeout(r, 300));
        expect(await env.prisma.install.count({ where: { installId: refused } })).toBe(0);
      } finally {
        await limited.close();
      }
    });

    it('stores the decision held in Redis when a racing call queued the one that lost', async () => {
      const link = await deepLink();
      const clickId = await click(link, { ip: '203.0.113.88' });
      const installId = randomUUID();
      // The winner of the SET NX (attributed) is already held; this call's own decision (no match from this IP) loses.
      const held = {
        answer: { attributed: true, linkId: link.id, shortCode: link.shortCode, deepLinkPath: '/product/42', deepLinkParameters: { promo: 'spring' }, matchType: 'fingerprint' as const },
        clickId,
        ambiguous: false,
      };
      await worker.app.get(InstallAnswerStore).putIfAbsent(app.id, installId, held);
      const res = await post('install', { installId, ...device }, app.token, '198.51.100.200').expect(200);
      expect(res.body).toEqual(held.answer);
      const row = await eventually(() => env.prisma.install.findFirst({ where: { installId } }));
      expect(row).toMatchObject({ linkId: link.id, clickId, matchType: 'fingerprint', ambiguous: false });
    });
  });

  describe('bad input (clear 4xx, nothing stored)', () => {
    const installId = randomUUID();
    // One refusal of the body and one of the service over HTTP; every rule of the bodies:
    // libs/sdk/src/ingest.dto.spec.ts (nesting too), revenue and currency: event-rules.spec.ts.
    const cases: Array<[string, string, object, Record<string, string>]> = [
      ['timestamp 10 minutes ahead', 'event', { installId, eventName: 'x', timestamp: new Date(Date.now() + 600_000).toISOString() }, { timestamp: 'Must be within the last 30 days and at most 5 minutes in the future' }],
      ['unknown currency', 'event', { installId, eventName: 'revenue', properties: { revenue: 1, currency: 'XYZ' } }, { 'properties.currency': 'Must be an ISO 4217 currency code' }],
    ];
    it.each(cases)('%s → 400', async (_name, path, body, validation) => {
      const res = await post(path, body).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
    });

    it('stored nothing for any of them', async () => {
      await new Promise((r) => setTimeout(r, 300));
      expect(await env.prisma.inAppEvent.count({ where: { installId } })).toBe(0);
      expect(await env.prisma.install.count({ where: { installId } })).toBe(0);
    });

    it('answers 400 Invalid JSON body for malformed JSON', async () => {
      const res = await request(ingest.url).post('/api/sdk/v1/event').set('Authorization', `Bearer ${app.token}`).set('Content-Type', 'application/json').send('{"installId":').expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid JSON body', statusCode: 400 });
    });
  });
});
