import request from 'supertest';
import { createTestEnv, RunningApp, startApp, TestEnv } from '@dl/testing';
import { createIngestApp } from './app';

describe('ingest app', () => {
  let env: TestEnv;
  let server: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv();
    server = await startApp(createIngestApp, env.config);
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
});
