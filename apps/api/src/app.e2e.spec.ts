import request from 'supertest';
import { createTestEnv, RunningApp, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from './app';

describe('api app', () => {
  let env: TestEnv;
  let server: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv();
    server = await startApp(createApiApp, env.config);
  });

  afterAll(async () => {
    await server?.close();
    await env?.teardown();
  });

  it('GET /health answers ok', async () => {
    const res = await request(server.url).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
  });

  it('GET /metrics answers in Prometheus text format', async () => {
    const res = await request(server.url).get('/metrics').expect(200);
    expect(res.text).toContain('# TYPE http_requests_total counter');
  });

  it('serves /openapi.json and /docs', async () => {
    const res = await request(server.url).get('/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.info.title).toBe('Deeplink API');
    const docs = await request(server.url).get('/docs');
    expect([200, 301, 302]).toContain(docs.status);
  });
});
