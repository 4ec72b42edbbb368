import { createServer, Server, Socket, connect } from 'node:net';
import request from 'supertest';
import { addMember, appEnv, authHeader, closeAll, RunningApp, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

/** A TCP relay in front of Redis that the test can cut, to take Redis away from a running app. */
class RedisRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 6379), this.target.hostname);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  async cut(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server?.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }
}

function expectHeaders(res: request.Response, limit: number, remaining: number): void {
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(res.headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now);
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 61);
}

describe('rate limits per organization and plan', () => {
  let env: TestEnv, a: RunningApp, b: RunningApp;

  beforeAll(async () => {
    // A loaded CI host can keep Redis past the limiter's 250 ms, and a request that stops
    // waiting is admitted uncounted (fail open): this spec is about exact counts, so it waits.
    ({ env, server: a } = await appEnv(createApiApp, { RATE_LIMIT_REDIS_TIMEOUT_MS: '5000' }));
    b = await startApp(createApiApp, env.withOverrides({}));
  }, 90_000); // two apps on a Redis Cluster: 30 s was not enough at a load of 20
  afterAll(() => closeAll(a, b, env));

  it('the 11th request of a FREE organization within a minute gets 429 with every header', async () => {
    const org = await seedOrganization(env);
    for (let i = 0; i < 10; i++) {
      const ok = await request(a.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
      expectHeaders(ok, 10, 9 - i);
    }
    const res = await request(a.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(429);
    expect(res.body).toEqual({
      error: 'Too Many Requests',
      message: 'Too many requests, please retry later',
      statusCode: 429,
      retryAfter: expect.any(Number),
    });
    expect(res.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(res.body.retryAfter).toBeLessThanOrEqual(60);
    expect(res.headers['retry-after']).toBe(String(res.body.retryAfter));
    expectHeaders(res, 10, 0);
    // The dashboard (JWT) has its own budget (decisions §20): a full API window does not lock it out.
    const dashboard = await request(a.url).get('/api/usage').set(authHeader(org.owner.jwt)).expect(200);
    expectHeaders(dashboard, 300, 299);
  });

  it('two api instances share one counter', async () => {
    const org = await seedOrganization(env);
    for (let i = 0; i < 10; i++) {
      const via = i % 2 ? b : a;
      const res = await request(via.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(9 - i));
    }
    await request(b.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(429);
    await request(a.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(429);
  });

  it('concurrent requests on two instances: exactly the limit admitted, each remaining value once', async () => {
    const org = await seedOrganization(env);
    // Requests arriving together share one script call per instance; the script decides them in order.
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => request((i % 2 ? b : a).url).get('/api/usage').set(authHeader(org.owner.apiKey))),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(6);
    expect(ok.map((r) => Number(r.headers['x-ratelimit-remaining'])).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const r of refused) {
      expectHeaders(r, 10, 0);
      expect(r.headers['retry-after']).toBe(String(r.body.retryAfter));
    }
    // Both instances now know the organization is full and answer 429 with every header.
    for (const via of [a, b, a]) {
      const res = await request(via.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(429);
      expectHeaders(res, 10, 0);
      expect(res.body.retryAfter).toBeGreaterThanOrEqual(1);
      expect(res.body.retryAfter).toBeLessThanOrEqual(60);
    }
    // A session of the same organization counts in its own window, not this full one.
    await request(a.url).get('/api/usage').set(authHeader(org.owner.jwt)).expect(200);
  });

  it('counts per organization, with each plan’s limit', async () => {
    const free = await seedOrganization(env);
    const pro = await seedOrganization(env, { tier: 'PRO' });
    const business = await seedOrganization(env, { tier: 'BUSINESS' });
    const unlimited = await seedOrganization(env, { tier: 'UNLIMITED' });
    for (let i = 0; i < 10; i++) await request(a.url).get('/api/usage').set(authHeader(free.owner.apiKey)).expect(200);
    await request(a.url).get('/api/usage').set(authHeader(free.owner.apiKey)).expect(429);
    for (const [org, limit] of [[pro, 60], [business, 200], [unlimited, 1000]] as const) {
      const res = await request(a.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
      expectHeaders(res, limit, limit - 1);
    }
  });

  it('does not count refused credentials, and counts role-refused requests', async () => {
    const org = await seedOrganization(env);
    for (let i = 0; i < 5; i++) await request(a.url).get('/api/usage').set('Authorization', `Bearer dl_${'0'.repeat(64)}`).expect(401);
    const noHeaders = await request(a.url).get('/api/usage').expect(401);
    expect(noHeaders.headers['x-ratelimit-limit']).toBeUndefined();
    const res = await request(a.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('9');
    const forbidden = await request(a.url).get('/api/organization/members').set(authHeader(org.owner.apiKey)).expect(403);
    expect(forbidden.headers['x-ratelimit-remaining']).toBeUndefined(); // dashboard-only is refused before counting
    const viewer = await addMember(env, org.organization.id, 'VIEWER');
    const roleRefused = await request(a.url).get('/api/organization/members').set(authHeader(viewer.jwt)).expect(403);
    expect(roleRefused.body.message).toBe('Your role does not allow this action');
    expect(roleRefused.headers['x-ratelimit-limit']).toBe('300');
    expect(roleRefused.headers['x-ratelimit-remaining']).toBe('299');
  });

  it('error answers of counted requests carry the headers too', async () => {
    const org = await seedOrganization(env);
    const res = await request(a.url).delete('/api/keys/00000000-0000-4000-8000-000000000000').set(authHeader(org.owner.jwt)).expect(404);
    expectHeaders(res, 300, 299);
    const bad = await request(a.url).post('/api/keys').set(authHeader(org.owner.jwt)).send({}).expect(400);
    expectHeaders(bad, 300, 298);
    const missing = await request(a.url).get('/api/links/00000000-0000-4000-8000-000000000000').set(authHeader(org.owner.apiKey)).expect(404);
    expectHeaders(missing, 10, 9);
  });

  it('health and docs are not counted', async () => {
    const res = await request(a.url).get('/health').expect(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it("a FREE organization's dashboard has 300 requests a minute per user, then the same 429", async () => {
    const org = await seedOrganization(env);
    const member = await addMember(env, org.organization.id, 'MEMBER');
    const pages = ['/api/usage', '/api/links', '/api/keys', '/api/organization/members', '/api/webhooks', '/api/apps', '/api/pixels'];
    for (let i = 0; i < 40; i++) {
      const res = await request(a.url).get(pages[i % pages.length]).set(authHeader(org.owner.jwt));
      expect(res.status).toBe(200);
      expectHeaders(res, 300, 299 - i);
    }
    const small = await startApp(createApiApp, env.withOverrides({ DASHBOARD_RATE_LIMIT_PER_MINUTE: '41' }));
    try {
      await request(small.url).get('/api/usage').set(authHeader(org.owner.jwt)).expect(200);
      const res = await request(small.url).get('/api/usage').set(authHeader(org.owner.jwt)).expect(429);
      expect(res.body).toEqual({ error: 'Too Many Requests', message: 'Too many requests, please retry later', statusCode: 429, retryAfter: expect.any(Number) });
      expect(res.headers['retry-after']).toBe(String(res.body.retryAfter));
      expectHeaders(res, 41, 0);
      // Another member of the organization and its API keys are not affected.
      expectHeaders(await request(small.url).get('/api/usage').set(authHeader(member.jwt)).expect(200), 41, 40);
      expectHeaders(await request(small.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200), 10, 9);
    } finally {
      await small.close();
    }
  });

  it('follows RATE_LIMIT_ENABLED=false and PLAN_LIMITS', async () => {
    const off = await startApp(createApiApp, env.withOverrides({ RATE_LIMIT_ENABLED: 'false' }));
    const custom = await startApp(createApiApp, env.withOverrides({ PLAN_LIMITS: JSON.stringify({ FREE: { requestsPerMinute: 3 } }) }));
    try {
      const org = await seedOrganization(env);
      for (let i = 0; i < 12; i++) {
        const res = await request(off.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
        expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      }
      const other = await seedOrganization(env);
      for (let i = 0; i < 3; i++) await request(custom.url).get('/api/usage').set(authHeader(other.owner.apiKey)).expect(200);
      const res = await request(custom.url).get('/api/usage').set(authHeader(other.owner.apiKey)).expect(429);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
    } finally {
      await off.close();
      await custom.close();
    }
  });

  it('degrades to a per-process limit when Redis goes away: never a 500', async () => {
    const relay = new RedisRelay(new URL(env.config.REDIS_URL));
    await relay.start();
    const app = await startApp(createApiApp, env.withOverrides({ REDIS_URL: `redis://127.0.0.1:${relay.port}` }));
    try {
      const org = await seedOrganization(env);
      await request(app.url).get('/api/usage').set(authHeader(org.owner.apiKey)).expect(200);
      await relay.cut();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await request(app.url).get('/api/usage').set(authHeader(org.owner.apiKey));
        statuses.push(res.status);
        expect(res.headers['x-ratelimit-limit']).toBe('10');
        if (res.status === 429) {
          expect(res.body).toMatchObject({ statusCode: 429, retryAfter: expect.any(Number) });
          expect(res.headers['retry-after']).toBeDefined();
        }
      }
      expect(statuses).not.toContain(500);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
      // Sessions still work without Redis (Postgres lookups).
      const other = await seedOrganization(env);
      await request(app.url).get('/api/usage').set(authHeader(other.owner.jwt)).expect(200);
    } finally {
      await app.close();
      await relay.cut().catch(() => undefined);
    }
  });
});
