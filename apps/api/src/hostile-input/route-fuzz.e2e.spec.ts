/**
 * Hostile input across the whole api (decisions §14), property-based: every route the app
 * registers gets arbitrary bodies, query strings and path parameters from fast-check, sent as
 * the owner of an organization (as a JWT session and as a `dl_` key). The field names come from
 * the app's own /openapi.json, so the values land in real fields. Whatever is sent, the answer
 * is never a 5xx, and every 4xx is the contract's error body. Routes are discovered from the
 * running app, so a new route is fuzzed without a line here.
 */
import fc from 'fast-check';
import request from 'supertest';
import { AppConfig } from '@dl/platform/config';
import { authHeader, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, startDnsServer, TestDnsServer, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

interface Route {
  method: string;
  url: string;
}

/** Keys of an error body (libs/platform/http/src/error-body.ts). */
const ERROR_KEYS = new Set(['error', 'message', 'statusCode', 'validation', 'retryAfter']);
/** Inputs per route (about 0.25 s each for the ~70 routes); `FUZZ_RUNS=600` hunts longer. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/** Every property name and parameter name in an OpenAPI document. */
function namesIn(doc: unknown): { fields: string[]; params: string[] } {
  const fields = new Set<string>();
  const params = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') Object.keys(o.properties).forEach((k) => fields.add(k));
    if (typeof o.name === 'string' && (o.in === 'query' || o.in === 'path')) params.add(o.name);
    Object.values(o).forEach(walk);
  };
  walk(doc);
  return { fields: [...fields].sort(), params: [...params].sort() };
}

/** A problem with one answer, or null when it keeps the contract. */
function breach(res: request.Response): string | null {
  if (res.status >= 500) return `answered ${res.status} ${JSON.stringify(res.body ?? res.text).slice(0, 300)}`;
  if (res.status < 400) return null;
  const b = res.body as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return `${res.status} without a JSON error body: ${String(res.text).slice(0, 200)}`;
  const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length) return `${res.status} error body has ${extra.join(', ')}`;
  if (typeof b.error !== 'string' || typeof b.message !== 'string' || b.statusCode !== res.status) return `${res.status} error body ${JSON.stringify(b)}`;
  if (b.validation !== undefined) {
    const v = b.validation as Record<string, unknown>;
    if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((m) => typeof m === 'string')) return `validation ${JSON.stringify(v)}`;
  }
  return null;
}

interface Seeded {
  template: string;
  link: string;
  project: string;
}

/** Nesting deeper than any recursion in the request path should follow. */
const DEEP_ARRAY = '['.repeat(50_000) + ']'.repeat(50_000);
const DEEP_OBJECT = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

let made = 0;
const fresh = () => `f${++made}x${process.pid}`;
const U = 'https://example.com/p';
/**
 * A valid body for the routes that take one: the fuzz changes, removes or adds one field of
 * it (at any depth), so the values get past validation of the rest and reach the services.
 */
const BASES: Record<string, (t: Seeded) => unknown> = {
  'POST /api/links': ({ template, project }) => ({
    templateId: template,
    originalUrl: U,
    title: 'T',
    tags: ['a'],
    iosUrl: U,
    deepLinkPath: '/p',
    deepLinkParameters: { a: '1' },
    utmParameters: { source: 's' },
    targetingRules: { countries: ['GB'], languages: ['en'], platforms: ['ios'] },
    attributionWindowHours: 24,
    expiresAt: '2099-01-01T00:00:00Z',
    expiredUrl: U,
    maxClicks: 10,
    variants: [{ url: U, weight: 50 }, { url: U, weight: 50 }],
    redirectRules: [
      { conditions: { countries: ['GB'], languages: ['en'], devices: ['ios'], os: ['iOS'], browsers: ['Safari'], query: { a: 'b' }, after: '2026-01-01T00:00:00Z', before: '2099-01-01T00:00:00Z' }, url: U },
    ],
    password: 'a-password',
    customCode: fresh(),
    projectId: project,
    domain: 'sho.rt',
  }),
  'PUT /api/links/:id': ({ template, project }) => ({ title: 'T', originalUrl: U, tags: ['b'], maxClicks: 5, variants: null, isActive: true, templateId: template, projectId: project, targetingRules: { devices: ['web'] } }),
  'POST /api/links/bulk-create': ({ template }) => ({ links: [{ templateId: template, originalUrl: U, customCode: fresh() }, { templateId: template, originalUrl: U }] }),
  'POST /api/links/bulk-update': ({ link }) => ({ updates: [{ id: link, data: { title: 'B', tags: ['c'] } }] }),
  'POST /api/links/bulk-delete': () => ({ ids: ['00000000-0000-4000-8000-000000000000'] }),
  'POST /api/templates': () => ({ name: 'T', slug: fresh(), description: 'D', defaults: { expiresInDays: 3, tags: ['t'], targetingRules: { countries: ['FR'] }, attributionWindowHours: 2 } }),
  'PUT /api/templates/:id': () => ({ name: 'T2', slug: fresh(), description: 'D', defaults: { expiresInDays: 3, utmParameters: { source: 's' } } }),
  'POST /api/projects': () => ({ name: 'P' }),
  'PUT /api/projects/:id': () => ({ name: 'P2' }),
  'POST /api/webhooks': ({ project }) => ({ url: 'http://127.0.0.1:9/h', events: ['link.created', 'link.clicked'], projectId: project }),
  'PATCH /api/webhooks/:id': () => ({ events: ['link.clicked'], isActive: true }),
  'POST /api/domains': () => ({ domain: `${fresh()}.fuzz.test` }),
  'PATCH /api/domains/:id': () => ({ isDefault: false, notFoundUrl: U }),
  'POST /api/apps': () => ({ name: 'A', platform: 'ios', bundleId: `com.example.${fresh()}`, appStoreUrl: 'https://apps.apple.com/app/id1', teamId: 'ABCDE12345' }),
  'POST /api/pixels': () => ({ name: 'P', domain: `${fresh()}.fuzz.test` }),
  'POST /api/keys': () => ({ name: 'K' }),
  'PATCH /api/keys/:id': () => ({ name: 'K2' }),
  'POST /api/organization/members': () => ({ email: `${fresh()}@example.test`, role: 'MEMBER' }),
  'PATCH /api/organization/members/:userId': () => ({ role: 'VIEWER' }),
  'POST /auth/signup': () => ({ email: `${fresh()}@example.test`, password: 'a-long-password', name: 'N', organizationName: 'O' }),
  'POST /auth/login': () => ({ email: 'nobody@example.test', password: 'a-long-password', organizationId: '00000000-0000-4000-8000-000000000000' }),
};

/** Every path inside a JSON value (not the root). */
function pathsOf(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, child]) => {
    const p = [...at, Array.isArray(v) ? Number(k) : k];
    return [p, ...pathsOf(child, p)];
  });
}

/** The base with one path set to a value, removed, or given an unknown sibling. */
function mutate(base: unknown, pick: number, op: 'set' | 'delete' | 'add', value: unknown, key: string): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  const paths = pathsOf(copy);
  if (!paths.length) return copy;
  const path = paths[pick % paths.length];
  let parent = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (op === 'set') parent[last] = value;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (!Array.isArray(parent)) Object.defineProperty(parent, key, { value, enumerable: true, configurable: true, writable: true });
  else parent.push(value);
  return copy;
}

describe('hostile input: no route answers 5xx or an error outside the contract (property-based)', () => {
  let env: TestEnv;
  let dns: TestDnsServer;
  let server: RunningApp;
  let org: SeededOrganization;
  const routes: Route[] = [];
  let fields: string[] = [];
  let queryNames: string[] = [];
  /** Real ids of the organization's resources, by parameter name. */
  const ids: Record<string, string[]> = {};
  let base: Seeded = { template: '', link: '', project: '' };
  /** The organization's own resource of each collection, for a route's path that must exist. */
  let own: Record<string, string> = {};
  const ownPath = (pattern: string) =>
    pattern.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
      if (name === 'userId') return own.members;
      const collection = /^\/api\/(?:organization\/)?([a-z]+)\//.exec(pattern)?.[1] ?? '';
      return own[collection] ?? '';
    });

  beforeAll(async () => {
    dns = await startDnsServer();
    // Webhooks may reach loopback only on a port nothing listens on; domain checks ask the empty test DNS server.
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address });
    server = await startApp(async (config: AppConfig) => {
      const app = await createApiApp(config);
      app
        .getHttpAdapter()
        .getInstance()
        .addHook('onRoute', (r: { method: string | string[]; url: string }) => {
          for (const method of [r.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: r.url });
        });
      return app;
    }, env.config);
    org = await seedOrganization(env, { tier: 'UNLIMITED' });
    ({ fields, params: queryNames } = namesIn((await request(server.url).get('/openapi.json').expect(200)).body));

    const post = async (path: string, body: object) => {
      const res = await request(server.url).post(path).set(authHeader(org.owner.jwt)).send(body);
      if (res.status >= 300) throw new Error(`arranging ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string };
    };
    const link = await post('/api/links', { templateId: org.template.id, originalUrl: 'https://example.com/a', title: 'Fuzz', tags: ['fuzz'] });
    const project = await post('/api/projects', { name: 'Fuzz' });
    const template = await post('/api/templates', { name: 'Fuzz', slug: 'fuzz' });
    const webhook = await post('/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['link.created'] });
    const domain = await post('/api/domains', { domain: 'go.fuzz.test' });
    // Not the seeded key's id: revoking it would leave the rest of the run answering 401.
    ids.id = [link.id, project.id, template.id, webhook.id, domain.id];
    ids.linkId = [link.id];
    ids.projectId = [project.id];
    // Another organization's owner joins as a member: one whose role may change.
    const other = await seedOrganization(env);
    const joined = await request(server.url).post('/api/organization/members').set(authHeader(org.owner.jwt)).send({ email: other.owner.user.email, role: 'MEMBER' });
    ids.userId = [joined.body.userId as string, org.owner.user.id];
    own = { links: link.id, projects: project.id, templates: template.id, webhooks: webhook.id, domains: domain.id, keys: org.owner.apiKeyId, members: ids.userId[0] };
    base = { template: org.template.id, link: link.id, project: project.id };
  });
  afterAll(async () => {
    await server?.close();
    await dns?.close();
    await env?.teardown();
  });

  it('discovers the route table and the field names', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(fields).toEqual(expect.arrayContaining(['originalUrl', 'templateId', 'events']));
  });

  it('every base body is accepted as it is (so a mutation tests one field)', async () => {
    const known = new Set(routes.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(BASES).filter((r) => !known.has(r))).toEqual([]);
    for (const [route, make] of Object.entries(BASES)) {
      if (route.startsWith('POST /auth/login')) continue; // no such account: 401 is its answer
      const [method, pattern] = route.split(' ');
      const url = ownPath(pattern);
      const res = await request(server.url)[method.toLowerCase() as 'post'](url).set(authHeader(org.owner.jwt)).send(make(base) as object);
      expect([route, res.status < 300 ? 'ok' : res.body]).toEqual([route, 'ok']);
    }
  });

  it('null (or nothing) in any field of a valid body, at any depth, is accepted or refused with a 4xx, never a 5xx', async () => {
    const failures: string[] = [];
    for (const [route, make] of Object.entries(BASES)) {
      const [method, pattern] = route.split(' ');
      const body = make(base);
      for (const [i, path] of pathsOf(body).entries()) {
        for (const op of ['set', 'delete'] as const) {
          const sent = mutate(make(base), i, op, null, '');
          const res = await request(server.url)[method.toLowerCase() as 'post'](ownPath(pattern)).set(authHeader(org.owner.jwt)).send(sent as object);
          const problem = breach(res);
          if (problem) failures.push(`${route} ${op} ${path.join('.')}: ${problem}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  const hostileText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 }).map((u) => String.fromCharCode(...u)),
    fc.constantFrom('', ' ', '\u0000', '\ud800', 'x\u0000y', '\r\n', '../..', '%00', '%E0%A4%A', '__proto__', 'constructor', 'null', 'true', '-1', '1e309', '0x10', 'NaN'),
    fc.constantFrom('https://example.com/x', 'javascript:alert(1)', 'http://127.0.0.1:9/', 'http://[::1]/', 'ftp://x', '//x', 'https://'),
    fc.constantFrom('2026-13-45T99:99:99Z', '2026-11-28', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '+275760-09-13T00:00:00.000Z'),
    fc.uuid(),
    fc.constant('a'.repeat(5000)),
  );
  const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 0.5));
  const scalar = fc.oneof(hostileText, hostileNumber, fc.boolean(), fc.constant(null));
  const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(hostileText, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('v'), { maxKeys: 4 }),
    ),
  })).v;

  // Resolved when the properties run (after beforeAll): the OpenAPI names are known then.
  const field = () => fc.constantFrom(...fields);
  const bodyOf = (route: Route) =>
    fc.oneof(
      ...(BASES[`${route.method} ${route.url}`]
        ? [
            fc
              .tuple(fc.nat(), fc.constantFrom<'set' | 'delete' | 'add'>('set', 'set', 'delete', 'add'), value, fc.constantFrom(...fields, '__proto__', 'x'))
              .map(([pick, op, v, key]) => ({ json: mutate(BASES[`${route.method} ${route.url}`](base), pick, op, v, key) })),
          ]
        : []),
      fc.dictionary(field(), value, { maxKeys: 8 }).map((b) => ({ json: b })),
      value.map((b) => ({ json: b })),
      fc
        .oneof(
          fc.constantFrom('{', '{"a":', '[1,]', 'null', '"x"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '\u0000', DEEP_ARRAY, DEEP_OBJECT),
          hostileText,
        )
        .map((raw) => ({ raw })),
    );
  const queryOf = () =>
    fc.oneof(
      fc.dictionary(fc.oneof(fc.constantFrom(...queryNames), field()), fc.oneof(hostileText, fc.array(hostileText, { maxLength: 3 })), { maxKeys: 5 }).map((q) => {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(q)) for (const one of [v].flat()) params.append(k, one);
        return params.toString();
      }),
      fc.constantFrom('%', '%zz', 'a=%E0%A4%A', 'limit=1&limit=2', '&&==&', 'cursor=' + '%FF'.repeat(20)),
    );
  /** A path parameter: encoded (lone surrogates made well-formed first), or a malformed escape as it is. */
  const paramOf = (name: string) =>
    fc.oneof(
      fc.constantFrom(...(ids[name] ?? ids.id)),
      fc.uuid(),
      hostileText.filter((v) => v.length > 0).map((v) => encodeURIComponent(Buffer.from(v).toString())),
      fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..', '.', 'a'.repeat(257)),
    );

  /** Builds the path of a route from its pattern (`:name`, `*`). */
  const pathArb = (pattern: string) => {
    const names = [...pattern.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((m) => m[1] ?? '*');
    return fc.tuple(...names.map((n) => paramOf(n))).map((values) => {
      let i = 0;
      return pattern.replace(/:([A-Za-z0-9_]+)|\*/g, () => values[i++]);
    });
  };

  it('every route, as a session and as an API key', async () => {
    const failures: string[] = [];
    // Deletes last: they remove the organization's resources the other routes' inputs name.
    const ordered = [...routes.filter((r) => r.method !== 'DELETE'), ...routes.filter((r) => r.method === 'DELETE')];
    for (const route of ordered) {
      const name = `${route.method} ${route.url}`;
      const property = fc.asyncProperty(pathArb(route.url), queryOf(), bodyOf(route), fc.boolean(), fc.boolean(), async (path, query, body, asKey, asJson) => {
        const url = query ? `${path}?${query}` : path;
        let req = request(server.url)[route.method.toLowerCase() as 'post'](url).set(authHeader(asKey ? org.owner.apiKey : org.owner.jwt));
        if (route.method !== 'GET' && route.method !== 'DELETE') {
          // JSON as text: superagent sends only objects and strings as they are.
          req = 'raw' in body ? req.set('Content-Type', asJson ? 'application/json' : 'text/plain').send(body.raw) : req.set('Content-Type', 'application/json').send(JSON.stringify(body.json));
        }
        const res = await req.timeout(20_000);
        const problem = breach(res);
        const sent = 'raw' in body ? JSON.stringify(body.raw).slice(0, 200) : JSON.stringify(body.json)?.slice(0, 300);
        if (problem) failures.push(`${name} → ${url.slice(0, 200)} ${sent}: ${problem}`);
        return problem === null;
      });
      // A breach ends the route's run, recorded as sent (no shrinking); a throw is a failure too.
      await fc.assert(property, { numRuns: RUNS, endOnFailure: true }).catch((err: Error) => {
        if (!failures.some((f) => f.startsWith(`${name} `))) failures.push(`${name} threw ${err.message.replace(/\n\s*Hint:[^\n]*/, '').slice(0, 1500)}`);
      });
    }
    expect(failures).toEqual([]);
    // And the service still answers its tenant.
    await request(server.url).get('/api/links').set(authHeader(org.owner.apiKey)).expect(200);
  }, 600_000);
});
