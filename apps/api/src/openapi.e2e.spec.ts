import request from 'supertest';
import { createTestEnv, RunningApp, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from './app';

interface Operation {
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

// Every route of the api is in /openapi.json with a documented success response, so
// customers can generate clients from it. A new route without response docs fails here.
describe('OpenAPI document', () => {
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

  it('documents a success response for every operation', async () => {
    const doc = (await request(server.url).get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, Operation>>;
    };
    const undocumented: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        operations++;
        const success = Object.entries(op.responses ?? {}).filter(([status]) => /^2\d\d$/.test(status));
        const ok = success.some(([status, r]) => status === '204' || (r.content && Object.keys(r.content).length > 0));
        if (!ok) undocumented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(operations).toBeGreaterThanOrEqual(40);
    expect(undocumented).toEqual([]);
  });
});
