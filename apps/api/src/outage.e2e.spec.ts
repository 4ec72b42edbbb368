import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { ClickFixtures, closeAll, createPrivatePostgresEnv, PrivatePostgresEnv, RunningApp, startApp } from '@dl/testing';
import { createApiApp } from './app';

/**
 * Postgres (a private cluster) down: every api answer that needs it is 503 with `Retry-After`
 * and the contract's error body (never a 500), the process keeps serving, and answers are 200
 * again once Postgres is back.
 */
describe('api: Postgres outage', () => {
  let env: PrivatePostgresEnv, server: RunningApp;

  beforeAll(async () => {
    env = await createPrivatePostgresEnv();
    server = await startApp(createApiApp, env.config);
  }, 120_000);

  afterAll(() => closeAll(server, env));

  it('answers 503 + Retry-After while Postgres is down, 200 after', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const { key } = await fx.apiKey(org.id);
    const list = () => request(server.url).get('/api/links').set('Authorization', `Bearer ${key}`);
    await list().expect(200);

    await env.pg.stop('fast');
    try {
      for (const res of [
        await list(),
        await request(server.url).post('/auth/login').send({ email: 'someone@example.com', password: 'correct-horse-battery' }),
      ]) {
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toEqual({
          error: 'Service Unavailable',
          message: 'Service temporarily unavailable, please retry',
          statusCode: 503,
          retryAfter: 5,
        });
      }
    } finally {
      await env.pg.start();
    }
    await list().expect(200);
  }, 120_000);
});
