/**
 * Hostile input across the ingest app (docs/decisions/hostile-input.md, "The whole api, fuzzed"): every route it
 * serves (the SDK's, on the bare request event, and the pixel's, on Fastify) gets
 * arbitrary bodies, query strings and path parameters, and valid bodies with one field
 * changed at any depth, sent with a real app token or none. No answer is a 5xx; every 4xx is
 * the contract's error body.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { ClickFixtures, closeAll, createTestEnv, FuzzRoute, fuzzRoutes, nullEveryField, recordRoutes, RunningApp, SdkFixtures, startApp, TestEnv } from '@dl/testing';
import { createIngestApp } from './app';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const device = { platform: 'ios', osVersion: '17.5', deviceModel: 'iPhone15,2', language: 'en-US', appVersion: '2.1.0' };

describe('hostile input: no ingest route answers 5xx or an error outside the contract (property-based)', () => {
  let env: TestEnv, server: RunningApp;
  const routes: FuzzRoute[] = [];
  let token = '';
  let siteKey = '';
  const installId = randomUUID();
  const event = () => ({ installId, eventName: 'purchase', properties: { revenue: 9.99, currency: 'USD', sku: 'A-1', tags: ['x'], nested: { a: 1 } }, timestamp: new Date().toISOString(), eventId: randomUUID() });
  const bases = (): Record<string, () => unknown> => ({
    'POST /api/sdk/v1/install': () => ({ installId: randomUUID(), ...device, clickId: randomUUID() }),
    'POST /api/sdk/v1/open': () => ({ installId, url: 'https://shop.example.com/p?dl_click=1' }),
    'POST /api/sdk/v1/event': event,
    'POST /api/sdk/v1/events': () => ({ events: [event(), event()] }),
    'POST /api/pixel/v1/event': () => ({ siteKey, type: 'conversion', url: 'https://shop.example.com/thanks', referrer: 'https://news.example.org/', clickId: randomUUID(), value: 12.5, currency: 'EUR' }),
  });
  const fields = [...new Set(Object.values(bases()).flatMap((make) => Object.keys(make() as object)).concat(Object.keys(event()), 'properties', 'events'))];

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    server = await startApp(async (config) => recordRoutes(await createIngestApp(config), routes), env.config);
    const orgId = (await new ClickFixtures(env.prisma).organization(Tier.UNLIMITED)).id;
    const fx = new SdkFixtures(env.prisma);
    token = (await fx.app(orgId)).token;
    siteKey = (await fx.site(orgId)).siteKey;
  });
  afterAll(() => closeAll(server, env));

  it('discovers the SDK and pixel routes', () => {
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(Object.keys(bases())));
  });

  it('every base body is accepted as it is (so a mutation tests one field)', async () => {
    for (const [route, make] of Object.entries(bases())) {
      const res = await request(server.url).post(route.split(' ')[1]).set('Authorization', `Bearer ${token}`).send(make() as object);
      expect([route, res.status < 300 ? 'ok' : res.body]).toEqual([route, 'ok']);
    }
  });

  it('null (or nothing) in any field of a valid body is accepted or refused with a 4xx, never a 5xx', async () => {
    expect(await nullEveryField(server.url, bases(), (p) => p, { Authorization: `Bearer ${token}` })).toEqual([]);
  });

  it('a pixel body with a key named __proto__ is refused by the body parser, before any pipe could take it as a prototype', async () => {
    const body = `{"siteKey":"${siteKey}","type":"pageview","url":"https://shop.example.com/","x":{"__proto__":{"constructor":"\\u0000\\u0001"}}}`;
    const res = await request(server.url).post('/api/pixel/v1/event').set('Content-Type', 'application/json').send(body);
    expect([res.status, res.body]).toEqual([400, { statusCode: 400, error: 'Bad Request', message: 'Invalid JSON body' }]);
  });

  it('every route, with the app token or none', async () => {
    const failures = await fuzzRoutes(server.url, routes, {
      fields,
      queryNames: ['v', 'siteKey', 'dl_click'],
      bases: bases(),
      headers: (withToken): Record<string, string> => (withToken ? { Authorization: `Bearer ${token}` } : {}),
      runs: RUNS,
    });
    expect(failures).toEqual([]);
  }, 600_000);
});
