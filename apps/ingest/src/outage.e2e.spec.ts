import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { ClickFixtures, closeAll, createPrivatePostgresEnv, PrivatePostgresEnv, RunningApp, SdkFixtures, startApp } from '@dl/testing';
import { createIngestApp } from './app';

const device = { platform: 'ios', osVersion: '17.5', language: 'en-US' };

/**
 * Postgres (a private cluster) down: an answer that needs it is 503 with `Retry-After` and the
 * contract's error body, never a 500; the app keeps serving and answers 200 again once it is back.
 */
describe('ingest: Postgres outage', () => {
  let env: PrivatePostgresEnv, server: RunningApp;

  beforeAll(async () => {
    env = await createPrivatePostgresEnv();
    server = await startApp(createIngestApp, env.config);
  }, 60_000);

  afterAll(() => closeAll(server, env));

  it('answers install with 503 + Retry-After while Postgres is down, 200 after', async () => {
    const org = await new ClickFixtures(env.prisma).organization(Tier.PRO);
    const app = await new SdkFixtures(env.prisma).app(org.id);
    const install = () =>
      request(server.url).post('/api/sdk/v1/install').set('Authorization', `Bearer ${app.token}`).send({ installId: randomUUID(), ...device });
    await install().expect(200);

    await env.pg.stop('fast');
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => install()));
      for (const res of answers) {
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
        expect(res.body).toEqual({
          error: 'Service Unavailable',
          message: expect.any(String),
          statusCode: 503,
          ...(res.body.retryAfter !== undefined ? { retryAfter: Number(res.headers['retry-after']) } : {}),
        });
      }
    } finally {
      await env.pg.start();
    }
    await install().expect(200);
  }, 60_000);
});
