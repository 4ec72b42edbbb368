/**
 * Hostile input across the whole api (decisions §14), property-based: every route the app
 * registers gets arbitrary bodies, query strings and path parameters from fast-check, sent as
 * the owner of an organization (as a JWT session and as a `dl_` key). The field names come from
 * the app's own /openapi.json, so the values land in real fields. Whatever is sent, the answer
 * is never a 5xx, and every 4xx is the contract's error body. Routes are discovered from the
 * running app, so a new route is fuzzed without a line here.
 */
import request from 'supertest';
import { AppConfig } from '@dl/platform/config';
import { addMember, authHeader, closeAll, contractBreach, createTestEnv, FuzzRoute, fuzzRoutes, nullEveryField, openApiNames, recordRoutes, RunningApp, SeededOrganization, seedOrganization, startApp, startDnsServer, TestDnsServer, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

/** Inputs per route (about 0.25 s each for the ~70 routes); `FUZZ_RUNS=600` hunts longer. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

interface Seeded {
  template: string;
  link: string;
  project: string;
}

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
  'POST /auth/forgot-password': () => ({ email: 'nobody@example.test' }),
  'PATCH /auth/me': () => ({ name: 'Fuzzed Owner' }),
  'PUT /api/organization/sso': () => ({ type: 'oidc', issuer: 'https://idp.fuzz.test', clientId: 'c', clientSecret: 's', domains: ['sso.fuzz.test'], enforce: false, defaultRole: 'MEMBER' }),
};

describe('hostile input: no route answers 5xx or an error outside the contract (property-based)', () => {
  let env: TestEnv, dns: TestDnsServer, server: RunningApp, org: SeededOrganization;
  const routes: FuzzRoute[] = [];
  let fields: string[] = [];
  let queryNames: string[] = [];
  let seeded: Seeded = { template: '', link: '', project: '' };
  /** The organization's own resource of each collection, for a route's path that must exist. */
  let own: Record<string, string> = {};
  /** Real values of a path parameter: the organization's own resources (not the seeded key: revoking it would leave the rest of the run answering 401). */
  const ownIds = (name: string): string[] => {
    if (name === 'userId') return [own.members, org.owner.user.id];
    if (name === 'linkId') return [own.links];
    if (name === 'projectId') return [own.projects];
    return [own.links, own.projects, own.templates, own.webhooks, own.domains];
  };
  const ownPath = (pattern: string) =>
    pattern.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
      if (name === 'userId') return own.members;
      const collection = /^\/api\/(?:organization\/)?([a-z]+)\//.exec(pattern)?.[1] ?? '';
      return own[collection] ?? '';
    });
  const bases = () => Object.fromEntries(Object.entries(BASES).map(([route, make]) => [route, () => make(seeded)]));

  beforeAll(async () => {
    dns = await startDnsServer();
    // Webhooks may reach loopback only on a port nothing listens on; domain checks ask the empty test DNS server.
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address });
    server = await startApp(async (config: AppConfig) => recordRoutes(await createApiApp(config), routes), env.config);
    org = await seedOrganization(env, { tier: 'UNLIMITED' });
    ({ fields, params: queryNames } = openApiNames((await request(server.url).get('/openapi.json').expect(200)).body));

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
    // A member whose role may change.
    const joined = await addMember(env, org.organization.id, 'MEMBER');
    own = { links: link.id, projects: project.id, templates: template.id, webhooks: webhook.id, domains: domain.id, keys: org.owner.apiKeyId, members: joined.user.id };
    seeded = { template: org.template.id, link: link.id, project: project.id };
  });
  afterAll(() => closeAll(server, dns, env));

  it('discovers the route table and the field names', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(fields).toEqual(expect.arrayContaining(['originalUrl', 'templateId', 'events']));
  });

  it('every base body is accepted as it is (so a mutation tests one field)', async () => {
    const known = new Set(routes.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(BASES).filter((r) => !known.has(r))).toEqual([]);
    for (const [route, make] of Object.entries(BASES)) {
      if (route === 'POST /auth/login') continue; // no such account: 401 is its answer
      const [method, pattern] = route.split(' ');
      const res = await request(server.url)[method.toLowerCase() as 'post'](ownPath(pattern)).set(authHeader(org.owner.jwt)).send(make(seeded) as object);
      expect([route, res.status < 300 ? 'ok' : res.body]).toEqual([route, 'ok']);
    }
  });

  it('null (or nothing) in any field of a valid body, at any depth, is accepted or refused with a 4xx, never a 5xx', async () => {
    expect(await nullEveryField(server.url, bases(), ownPath, authHeader(org.owner.jwt))).toEqual([]);
  }, 120_000);

  it('every route, as a session and as an API key', async () => {
    // SCIM (/scim/v2) has its own credential (a SCIM token) and error body (RFC 7644 §3.12), not this contract's: scim.e2e.spec.ts.
    const failures = await fuzzRoutes(server.url, routes.filter((r) => !r.url.startsWith('/scim/')), {
      fields,
      queryNames,
      bases: bases(),
      params: ownIds,
      headers: (asKey) => authHeader(asKey ? org.owner.apiKey : org.owner.jwt),
      runs: RUNS,
      streams: ['GET /api/analytics/live'],
    });
    expect(failures).toEqual([]);
    // And the service still answers its tenant.
    const after = await request(server.url).get('/api/links').set(authHeader(org.owner.apiKey));
    expect([after.status, contractBreach(after)]).toEqual([200, null]);
  }, 600_000);
});
