import request from 'supertest';
import { describeAppBasics } from '@dl/testing';
import { createApiApp } from './app';

describeAppBasics('api app', createApiApp, (server) => {
  it('serves /openapi.json and /docs', async () => {
    const res = await request(server().url).get('/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.info.title).toBe('Deeplink API');
    const docs = await request(server().url).get('/docs');
    expect([200, 301, 302]).toContain(docs.status);
  });

  // Every route is in /openapi.json with a documented success response, so customers can
  // generate clients from it. A new route without response docs fails here.
  it('documents a success response for every operation', async () => {
    const doc = (await request(server().url).get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }> }>>;
    };
    const undocumented: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        operations++;
        // A 2xx with its body's schema, a 204, or a redirect (the SSO routes' 302) with its Location.
        const success = Object.entries(op.responses ?? {}).filter(([status]) => /^[23]\d\d$/.test(status));
        const ok = success.some(
          ([status, r]) => status === '204' || (status.startsWith('2') && r.content && Object.keys(r.content).length > 0) || (status.startsWith('3') && r.headers?.Location !== undefined),
        );
        if (!ok) undocumented.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(operations).toBeGreaterThanOrEqual(40);
    expect(undocumented).toEqual([]);
  });

  // A client generated from the document needs a type for every parameter, and finds the contract's
  // error body (JSON) under every failure, also of the routes that serve CSV, PNG, ZIP or events.
  it('gives every parameter a schema and every failure the JSON error body', async () => {
    const doc = (await request(server().url).get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; schema?: object }>; responses?: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    const problems: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const route = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters ?? []) if (Object.keys(p.schema ?? {}).length === 0) problems.push(`${route}: parameter ${p.name} has no schema`);
        for (const [status, r] of Object.entries(op.responses ?? {})) {
          const types = Object.keys(r.content ?? {});
          if (Number(status) >= 400 && types.join() !== 'application/json') problems.push(`${route}: ${status} as ${types.join(', ') || 'nothing'}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
