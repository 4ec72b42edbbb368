/**
 * Tenancy across the whole api (decisions §4): every route with an id parameter
 * (`:id`, `:userId`, `:linkId`, ...) must answer organization B's credential on
 * organization A's resource exactly like a missing one: 404 with that resource's
 * not-found message. Routes are discovered from the running app, so a new route
 * without a row in COVERAGE fails this test.
 *
 * Adding a row (one line): the key is "<METHOD> <route as registered>", the value
 * says how organization A creates the resource and which 404 message B must get:
 *
 *   'GET /api/things/:id': row(created('/api/things', { name: 'x' }), 'Thing not found'),
 *   'PATCH /api/things/:id': row(created('/api/things', { name: 'x' }), 'Thing not found', { body: { name: 'y' } }),
 *
 * `created(path, body)` POSTs as A's owner and takes `id` from the answer; for other
 * parameters write the maker inline: `async (a) => ({ linkId: (await a.post('/api/links', {...})).body.id })`.
 * After B's 404 the test sends the same request as A and expects no 404, which proves
 * the row builds a real path. Options: `body`, `upload` (multipart files by name), `query` (string), `as: 'apiKey'`.
 */
import request from 'supertest';
import { AppConfig } from '@dl/platform/config';
import { addMember, authHeader, ClickFixtures, closeAll, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

type Params = Record<string, string>;

/** Organization A's owner, speaking to the api. */
interface OrgClient {
  org: SeededOrganization;
  env: TestEnv;
  post(path: string, body?: object): Promise<request.Response>;
}

interface Row {
  make: (a: OrgClient) => Promise<Params>;
  notFound: string;
  body?: object;
  query?: string;
  as?: 'jwt' | 'apiKey';
  /** A multipart body: file parts by name. */
  upload?: Record<string, Buffer>;
}

function row(make: Row['make'], notFound: string, options: Omit<Row, 'make' | 'notFound'> = {}): Row {
  return { make, notFound, ...options };
}

/** POSTs `body` to `path` as A's owner (expects 2xx) and names the answer's `id` as parameter `param`. */
function created(path: string, body: object | ((a: OrgClient) => object), param = 'id'): Row['make'] {
  return async (a) => {
    const res = await a.post(path, typeof body === 'function' ? body(a) : body);
    if (res.status >= 300) throw new Error(`arranging ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return { [param]: res.body.id };
  };
}

/** A member of A (added by the operator path: the API invites). */
const newMember = async (a: OrgClient): Promise<Params> => {
  const member = await addMember(a.env, a.org.organization.id, 'MEMBER');
  return { userId: member.user.id };
};
/** An email without an account: an invitation. */
const invitation = async (a: OrgClient): Promise<Params> => {
  const res = await a.post('/api/organization/members', {
    email: `i-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
    role: 'MEMBER',
  });
  return { id: res.body.invitationId };
};

/** Another dashboard session of A's owner (not the one the sweep signs in with). */
const session = async (a: OrgClient): Promise<Params> => {
  const row = await a.env.prisma.session.create({ data: { userId: a.org.owner.user.id, organizationId: a.org.organization.id } });
  return { id: row.id };
};

const unique = () => Math.random().toString(36).slice(2, 10);
/** A 1 × 1 PNG (a QR logo). */
const PNG_LOGO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const apiKey = created('/api/keys', { name: 'tenancy' });
const scimToken = created('/api/organization/scim-tokens', {});
const link = (param = 'id') => created('/api/links', (a) => ({ templateId: a.org.template.id, originalUrl: 'https://example.com' }), param);
const template = created('/api/templates', () => ({ name: 'Tenancy', slug: `t-${unique()}` }));
const project = (param = 'id') => created('/api/projects', { name: 'Tenancy' }, param);
const webhook = created('/api/webhooks', { url: 'https://example.com/hooks', events: ['link.created'] });
const app = created('/api/apps', () => ({ name: 'Tenancy iOS', platform: 'ios', bundleId: `com.example.t${unique()}` }));
const pixel = created('/api/pixels', { name: 'Tenancy', domain: 'tenancy.example.com' });
const domain = created('/api/domains', () => ({ domain: `t-${unique()}.tenancy.test` }));
/** A customer: a lead for a click of A's link (decisions §23). */
const customer = async (a: OrgClient): Promise<Params> => {
  const made = await a.post('/api/links', { templateId: a.org.template.id, originalUrl: 'https://example.com' });
  const click = await new ClickFixtures(a.env.prisma).click({ id: made.body.id, organizationId: a.org.organization.id });
  const res = await a.post('/api/track/lead', { clickId: click.id, eventName: 'Sign up', customerExternalId: `t-${unique()}` });
  return { id: res.body.customer.id };
};

const COVERAGE: Record<string, Row> = {
  'PATCH /api/keys/:id': row(apiKey, 'API key not found', { body: { name: 'renamed' } }),
  'DELETE /api/keys/:id': row(apiKey, 'API key not found'),
  'DELETE /api/organization/scim-tokens/:id': row(scimToken, 'SCIM token not found'),
  'PATCH /api/organization/members/:userId': row(newMember, 'Member not found', { body: { role: 'VIEWER' } }),
  'DELETE /api/organization/members/:userId': row(newMember, 'Member not found'),
  'DELETE /api/organization/invitations/:id': row(invitation, 'Invitation not found'),
  'DELETE /auth/sessions/:id': row(session, 'Session not found'),
  'GET /api/links/:id': row(link(), 'Link not found'),
  'PUT /api/links/:id': row(link(), 'Link not found', { body: { title: 'Renamed' } }),
  'DELETE /api/links/:id': row(link(), 'Link not found'),
  'GET /api/links/:id/qr': row(link(), 'Link not found'),
  'GET /api/links/:id/qr/logo': row(link(), 'Link not found'),
  'PUT /api/links/:id/qr/logo': row(link(), 'Link not found', { upload: { logo: PNG_LOGO } }),
  'DELETE /api/links/:id/qr/logo': row(link(), 'Link not found'),
  'GET /api/analytics/links/:linkId': row(link('linkId'), 'Link not found'),
  'GET /api/analytics/clicks/:linkId': row(link('linkId'), 'Link not found'),
  'GET /api/analytics/clicks/:linkId/export': row(link('linkId'), 'Link not found', { query: 'format=csv' }),
  'GET /api/analytics/projects/:projectId': row(project('projectId'), 'Project not found'),
  'GET /api/templates/:id': row(template, 'Template not found'),
  'PUT /api/templates/:id': row(template, 'Template not found', { body: { name: 'Renamed' } }),
  'DELETE /api/templates/:id': row(template, 'Template not found'),
  'GET /api/projects/:id': row(project(), 'Project not found'),
  'PUT /api/projects/:id': row(project(), 'Project not found', { body: { name: 'Renamed' } }),
  'DELETE /api/projects/:id': row(project(), 'Project not found'),
  'GET /api/webhooks/:id': row(webhook, 'Webhook not found'),
  'PATCH /api/webhooks/:id': row(webhook, 'Webhook not found', { body: { events: ['link.clicked'] } }),
  'DELETE /api/webhooks/:id': row(webhook, 'Webhook not found'),
  'POST /api/webhooks/:id/test': row(webhook, 'Webhook not found'),
  'GET /api/webhooks/:id/deliveries': row(webhook, 'Webhook not found'),
  'DELETE /api/apps/:id': row(app, 'App not found'),
  'DELETE /api/pixels/:id': row(pixel, 'Pixel site not found'),
  'GET /api/domains/:id': row(domain, 'Domain not found'),
  'PATCH /api/domains/:id': row(domain, 'Domain not found', { body: { notFoundUrl: null } }),
  'DELETE /api/domains/:id': row(domain, 'Domain not found'),
  'POST /api/domains/:id/verify': row(domain, 'Domain not found'),
  'GET /api/customers/:id': row(customer, 'Customer not found'),
};

/** Parameters that name a resource: `id` and `<something>Id`. */
const ID_PARAM = /:(id|[a-z][A-Za-z0-9]*Id)\b/;

describe('tenancy: every id route answers 404 to another organization', () => {
  let env: TestEnv, server: RunningApp;
  const routes: Array<{ method: string; url: string }> = [];
  let a: OrgClient, b: SeededOrganization;

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    server = await startApp(async (config: AppConfig) => {
      const app = await createApiApp(config);
      // Routes are registered when the app initialises (listen): record each one.
      app
        .getHttpAdapter()
        .getInstance()
        .addHook('onRoute', (r: { method: string | string[]; url: string }) => {
          for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
        });
      return app;
    }, env.config);
    const orgA = await seedOrganization(env, { tier: 'UNLIMITED' });
    b = await seedOrganization(env, { tier: 'UNLIMITED' });
    a = {
      org: orgA,
      env,
      post: (path, body) => request(server.url).post(path).set(authHeader(orgA.owner.jwt)).send(body ?? {}),
    };
  });
  afterAll(() => closeAll(server, env));

  // SCIM (/scim/v2) authenticates with an organization's SCIM token and answers SCIM's own error
  // body: its tenancy ("another organization's token sees nothing") is proven in scim.e2e.spec.ts.
  const idRoutes = () => routes.filter((r) => ID_PARAM.test(r.url) && !r.url.startsWith('/scim/')).map((r) => `${r.method} ${r.url}`);

  it('discovers the route table', () => {
    expect(routes.length).toBeGreaterThan(5);
    expect(idRoutes()).toContain('DELETE /api/keys/:id');
  });

  it('has a coverage row for every route with an id parameter', () => {
    const missing = idRoutes().filter((r) => !COVERAGE[r]);
    expect(missing).toEqual([]);
  });

  it('has no row for a route that no longer exists', () => {
    const known = new Set(idRoutes());
    expect(Object.keys(COVERAGE).filter((r) => !known.has(r))).toEqual([]);
  });

  /**
   * Routes without an id that list the organization's data by filter or aggregate
   * (decisions §16): A's link carries a unique marker as tag and title; B's answer must
   * not contain it, A's must.
   */
  const LISTS = ['/api/tags', '/api/links?tag=MARKER', '/api/links?search=MARKER', '/api/links?tag=MARKER&search=MARKER&limit=1&isActive=true&domain='];
  it.each(LISTS)('GET %s answers only the caller organization', async (route) => {
    const marker = `m${unique()}`;
    await a.post('/api/links', { templateId: a.org.template.id, originalUrl: 'https://example.com', title: marker, tags: [marker] });
    const path = route.replace(/MARKER/g, marker);
    const foreign = await request(server.url).get(path).set(authHeader(b.owner.jwt)).expect(200);
    expect(JSON.stringify(foreign.body)).not.toContain(marker);
    const own = await request(server.url).get(path).set(authHeader(a.org.owner.jwt)).expect(200);
    expect(JSON.stringify(own.body)).toContain(marker);
  });

  /** The organization's single sign-on (decisions §25): one per organization, no id; B never sees A's. */
  it('GET /api/organization/sso answers only the caller organization', async () => {
    const marker = `m${unique()}`;
    const setting = { type: 'oidc', issuer: `https://${marker}.idp.test`, clientId: marker, clientSecret: 's', domains: [`${marker}.test`] };
    await request(server.url).put('/api/organization/sso').set(authHeader(a.org.owner.jwt)).send(setting).expect(200);
    const foreign = await request(server.url).get('/api/organization/sso').set(authHeader(b.owner.jwt));
    expect([foreign.status, JSON.stringify(foreign.body).includes(marker)]).toEqual([404, false]);
    await request(server.url).post('/api/organization/sso/verify').set(authHeader(b.owner.jwt)).expect(404);
    const own = await request(server.url).get('/api/organization/sso').set(authHeader(a.org.owner.jwt)).expect(200);
    expect(JSON.stringify(own.body)).toContain(marker);
  });

  it.each(Object.keys(COVERAGE))('%s', async (route) => {
    const spec = COVERAGE[route];
    const [method, pattern] = route.split(' ');
    const params = await spec.make(a);
    const path =
      pattern.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
        if (!params[name]) throw new Error(`row for ${route} did not provide :${name}`);
        return encodeURIComponent(params[name]);
      }) + (spec.query ? `?${spec.query}` : '');
    const send = (org: SeededOrganization) => {
      const credential = spec.as === 'apiKey' ? org.owner.apiKey : org.owner.jwt;
      const req = request(server.url)[method.toLowerCase() as 'get'](path).set(authHeader(credential));
      if (spec.upload) return Object.entries(spec.upload).reduce((r, [name, file]) => r.attach(name, file, 'upload'), req);
      return spec.body ? req.send(spec.body) : req;
    };
    const foreign = await send(b);
    expect([route, foreign.status, foreign.body]).toEqual([route, 404, { error: 'Not Found', message: spec.notFound, statusCode: 404 }]);
    const own = await send(a.org);
    expect([route, own.status === 404 ? own.body : 'not 404']).toEqual([route, 'not 404']);
  });
});
