import { networkInterfaces } from 'node:os';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import request from 'supertest';
import { createIngestApp } from '@dl/apps/ingest';
import { createRedirectApp } from '@dl/apps/redirect';
import { createWorkerApp } from '@dl/apps/worker';
import { AppConfig } from '@dl/platform/config';
import { createTestEnv, TestEnv } from '@dl/testing';
import { createApiApp } from './app';

const TOKEN = 'metrics-token-0123456789abcdef';

/** An address of this machine that is not loopback: a request from it is a remote peer to the app. */
const external = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

interface Listening {
  app: NestFastifyApplication;
  port: number;
}

/** Listens on every interface so the same app is reached from loopback and from `external`. */
async function listenEverywhere(create: (c: AppConfig) => Promise<NestFastifyApplication>, config: AppConfig): Promise<Listening> {
  const app = await create(config);
  await app.listen(0, '0.0.0.0');
  const address = app.getHttpServer().address();
  return { app, port: typeof address === 'object' && address ? address.port : 0 };
}

const NOT_FOUND = { error: 'Not Found', message: 'Not Found', statusCode: 404 };
const UNAUTHORIZED = { error: 'Unauthorized', message: 'Missing or invalid metrics token', statusCode: 401 };

describe('/metrics on loopback or behind METRICS_TOKEN (decisions §14)', () => {
  let env: TestEnv;
  const apps: Listening[] = [];

  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    for (const a of apps) await a.app.close();
    await env?.teardown();
  });

  it('has a non-loopback address to test from', () => {
    // Without one, only the loopback and token paths below are exercised.
    expect(external).toEqual(expect.any(String));
  });

  const kinds: Array<[string, (c: AppConfig) => Promise<NestFastifyApplication>]> = [
    ['api', createApiApp],
    ['redirect', createRedirectApp],
    ['ingest', createIngestApp],
    ['worker', createWorkerApp],
  ];

  it.each(kinds)('%s: with a token set, loopback reads, a remote peer needs the token (a forwarded header does not help)', async (_name, create) => {
    const served = await listenEverywhere(create, env.withOverrides({ METRICS_TOKEN: TOKEN }));
    apps.push(served);
    const local = `http://127.0.0.1:${served.port}`;
    const ok = await request(local).get('/metrics').expect(200);
    expect(ok.text).toContain('# TYPE http_requests_total counter');
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    if (!external) return;
    const remote = `http://${external}:${served.port}`;
    for (const auth of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${TOKEN}`, TOKEN]) {
      const req = request(remote).get('/metrics').set('x-forwarded-for', '127.0.0.1').set('x-real-ip', '127.0.0.1');
      const res = await (auth ? req.set('authorization', auth) : req);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.text).not.toContain('http_requests_total');
    }
    const authed = await request(remote).get('/metrics').set('authorization', `Bearer ${TOKEN}`).expect(200);
    expect(authed.text).toContain('# TYPE http_requests_total counter');
    // /health stays open to load balancers.
    await request(remote).get('/health').expect(200);
  });

  it('without a token, /metrics does not exist for a remote peer (404 like any unknown route) and loopback still reads', async () => {
    const served = await listenEverywhere(createApiApp, env.withOverrides({}));
    apps.push(served);
    await request(`http://127.0.0.1:${served.port}`).get('/metrics').expect(200);
    if (!external) return;
    const res = await request(`http://${external}:${served.port}`).get('/metrics').set('authorization', `Bearer ${TOKEN}`).expect(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});
