import Redis from 'ioredis';
import request from 'supertest';
import { appEnv, RunningApp, SEED_PASSWORD, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const LIMIT = 5;

function expectLimitHeaders(res: request.Response, remaining: number): void {
  expect(res.headers['x-ratelimit-limit']).toBe(String(LIMIT));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  const reset = Number(res.headers['x-ratelimit-reset']);
  expect(reset).toBeGreaterThan(Date.now() / 1000);
  expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 61);
}

function expect429(res: request.Response): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    error: 'Too Many Requests',
    message: 'Too many requests, please retry later',
    statusCode: 429,
    retryAfter: expect.any(Number),
  });
  expect(res.body.retryAfter).toBeGreaterThanOrEqual(1);
  expect(res.body.retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers['retry-after']).toBe(String(res.body.retryAfter));
  expectLimitHeaders(res, 0);
}

describe('per-IP limit of the password routes (decisions §14)', () => {
  let env: TestEnv, a: RunningApp, b: RunningApp, proxied: RunningApp, redis: Redis;

  beforeAll(async () => {
    ({ env, server: a } = await appEnv(createApiApp, { AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) }));
    b = await startApp(createApiApp, env.withOverrides({ AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT) }));
    proxied = await startApp(createApiApp, env.withOverrides({ AUTH_RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUSTED_CLIENT_IP_HEADER: 'x-real-ip' }));
    redis = new Redis(env.config.REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await a?.close();
    await b?.close();
    await proxied?.close();
    await env?.teardown();
  });

  it('counts every attempt of one IP across login, signup and accept-invite and every instance; the next gets 429 with a truthful Retry-After', async () => {
    const seeded = await seedOrganization(env);
    const before = await env.prisma.user.count();
    // Valid, wrong and malformed attempts all count, on either instance.
    let res = await request(a.url).post('/auth/login').send({ email: seeded.owner.user.email, password: SEED_PASSWORD }).expect(200);
    expectLimitHeaders(res, 4);
    res = await request(b.url).post('/auth/login').send({ email: seeded.owner.user.email, password: 'wrong-password-1' }).expect(401);
    expectLimitHeaders(res, 3);
    res = await request(a.url).post('/auth/signup').send({ email: 'not-an-email' }).expect(400);
    expectLimitHeaders(res, 2);
    res = await request(b.url).post('/auth/accept-invite').send({ token: `dli_${'0'.repeat(48)}`, name: 'X', password: 'a-long-password' }).expect(400);
    expectLimitHeaders(res, 1);
    res = await request(a.url).post('/auth/login').send({ email: 'nobody@example.test', password: 'wrong-password-1' }).expect(401);
    expectLimitHeaders(res, 0);

    // Over the limit: even the right password, a signup, or a spoofed X-Forwarded-For.
    expect429(await request(b.url).post('/auth/login').send({ email: seeded.owner.user.email, password: SEED_PASSWORD }));
    expect429(
      await request(a.url)
        .post('/auth/signup')
        .send({ email: 'fresh@example.test', password: 'a-long-password', name: 'Fresh', organizationName: 'Fresh Co' }),
    );
    const spoofed = await request(a.url)
      .post('/auth/login')
      .set('x-forwarded-for', '203.0.113.9')
      .send({ email: seeded.owner.user.email, password: SEED_PASSWORD });
    expect429(spoofed);
    expect(await env.prisma.user.count()).toBe(before);

    // Retry-After is the time left of this IP's window in Redis (refusals do not extend it).
    const pttl = await redis.pttl(`${env.config.REDIS_PREFIX}:auth:ip:127.0.0.1`);
    expect(pttl).toBeGreaterThan(0);
    expect(Math.abs(spoofed.body.retryAfter - Math.ceil(pttl / 1000))).toBeLessThanOrEqual(1);

    // Other routes of /auth are not counted (refresh reads a cookie, logout clears it).
    await request(a.url).post('/auth/logout').expect(204);
  });

  it('behind a trusted proxy, counts per forwarded client address', async () => {
    const seeded = await seedOrganization(env);
    const login = (ip: string) =>
      request(proxied.url).post('/auth/login').set('x-real-ip', ip).send({ email: seeded.owner.user.email, password: SEED_PASSWORD });
    for (let i = 0; i < LIMIT; i++) expect((await login('198.51.100.7')).status).toBe(200);
    expect429(await login('198.51.100.7'));
    const other = await login('198.51.100.8');
    expect(other.status).toBe(200);
    expectLimitHeaders(other, LIMIT - 1);
  });

  it('GET /auth/sso/start counts against the same per-IP window as login: past the limit, 429 with retryAfter before any lookup', async () => {
    const seeded = await seedOrganization(env);
    const ip = '198.51.100.20';
    const start = (email: string) => request(proxied.url).get(`/auth/sso/start?email=${encodeURIComponent(email)}`).set('x-real-ip', ip);
    let res = await request(proxied.url).post('/auth/login').set('x-real-ip', ip).send({ email: seeded.owner.user.email, password: SEED_PASSWORD }).expect(200);
    expectLimitHeaders(res, LIMIT - 1);
    for (let left = LIMIT - 2; left >= 0; left--) {
      // No organization verified this domain: 404, still counted; a malformed email counts too.
      res = await start(left === 0 ? 'not-an-email' : 'ada@nobody-sso.test').expect(left === 0 ? 400 : 404);
      expectLimitHeaders(res, left);
    }
    expect429(await start('ada@nobody-sso.test'));
    expect429(await request(proxied.url).post('/auth/login').set('x-real-ip', ip).send({ email: seeded.owner.user.email, password: SEED_PASSWORD }));
    expect((await start('ada@nobody-sso.test').set('x-real-ip', '198.51.100.21')).status).toBe(404);
  });
});
