import request from 'supertest';
import { createRedirectApp } from '@dl/apps/redirect';
import { RunningApp, startApp } from '@dl/testing';
// The operator CLI runs in-process, as tools/cli's own specs run it (the CLI is a tool, not a library).
// eslint-disable-next-line @nx/enforce-module-boundaries
import { runCommand } from '../../../../tools/cli/run';
import { bad, LinksWorld, linksWorld, waitFor } from '../links/test/links-setup';

/**
 * decisions §22, the abuse desk end to end: a visitor's report, the operator CLI resolving it,
 * and a suspended organization (its links disabled at the edge, its keys refused, nothing deleted).
 */
describe('abuse reports and suspensions', () => {
  let w: LinksWorld;
  let edge: RunningApp;

  beforeAll(async () => {
    w = await linksWorld({ env: { TRUSTED_CLIENT_IP_HEADER: 'x-client-ip' } });
    edge = await startApp(createRedirectApp, w.env.config);
  });
  afterAll(async () => {
    await edge?.close();
    await w?.close();
  });

  const base = () => w.env.config.SHORT_LINK_BASE_URL;
  const report = (body: Record<string, unknown>, ip = '192.0.2.10') => request(w.api.url).post('/abuse/reports').set('x-client-ip', ip).send(body);
  const cli = async (...argv: string[]) => {
    let stdout = '';
    const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL } = w.env.config;
    const code = await runCommand(argv, { DATABASE_URL, REDIS_URL, REDIS_PREFIX, JWT_SECRET, SHORT_LINK_BASE_URL }, { stdout: (t) => void (stdout += t), stderr: () => undefined });
    return { code, json: stdout ? (JSON.parse(stdout) as Record<string, any>) : undefined };
  };
  const visit = (code: string) => request(edge.url).get(`/${code}`).set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0').redirects(0);

  it('files a report of one of our short links (no credentials) and refuses any other URL', async () => {
    const link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/r' }).expect(201)).body;
    const res = await report({ url: `${base()}/${link.short_code}`, category: 'phishing', details: 'fake bank', reporterEmail: 'a@b.test' }).expect(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    for (const url of ['https://elsewhere.example/abc', `${base()}/NoSuchCode1`, 'javascript:alert(1)', `${base()}/%E0%A4%A`, 'not a url']) {
      expect((await report({ url, category: 'spam' }).expect(400)).body).toEqual(bad('Validation error', { url: 'Must be a short link of this service' }));
    }
    expect((await report({ url: `${base()}/${link.short_code}`, category: 'weird' }).expect(400)).body).toEqual(
      bad('Validation error', { category: 'Must be one of phishing, malware, spam, illegal, other' }),
    );
  });

  it('a short link on a branded domain is ours too; a pending domain or an unknown code there is not', async () => {
    const domain = (name: string, status: 'verified' | 'pending') =>
      w.env.prisma.domain.create({
        data: { organizationId: w.a.organization.id, domain: name, heldName: status === 'verified' ? name : null, status, verifiedAt: status === 'verified' ? new Date() : null, verificationToken: '0123456789abcdef0123456789abcdef' },
      });
    await domain('go.reported.test', 'verified');
    await domain('pending.reported.test', 'pending');
    const link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/d', domain: 'go.reported.test', customCode: 'OnBrand1' }).expect(201)).body;
    const { id } = (await report({ url: 'https://GO.reported.test./OnBrand1', category: 'spam' }, '192.0.2.40').expect(201)).body;
    expect(await w.env.prisma.abuseReport.findUniqueOrThrow({ where: { id } })).toMatchObject({ linkId: link.id, organizationId: w.a.organization.id });
    for (const url of ['https://go.reported.test/NoSuchCode1', 'https://pending.reported.test/OnBrand1', `${base()}/OnBrand1`]) {
      expect((await report({ url, category: 'spam' }, '192.0.2.40').expect(400)).body).toEqual(bad('Validation error', { url: 'Must be a short link of this service' }));
    }
  });

  it('the api answers with security headers; /docs has its own CSP (decisions §22)', async () => {
    const json = await w.http().get('/api/links').expect(200);
    expect(json.headers['x-content-type-options']).toBe('nosniff');
    expect(json.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(json.headers['x-frame-options']).toBe('SAMEORIGIN');
    const docs = await request(w.api.url).get('/docs').redirects(1);
    expect(docs.status).toBe(200);
    expect(docs.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self';.*frame-ancestors 'none'$/);
    expect(docs.text).not.toMatch(/<script>[^<]/);
  });

  it('allows 10 reports an hour per client IP', async () => {
    const link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/r2' }).expect(201)).body;
    const url = `${base()}/${link.short_code}`;
    for (let i = 0; i < 10; i++) await report({ url, category: 'spam' }, '192.0.2.99').expect(201);
    const limited = await report({ url, category: 'spam' }, '192.0.2.99').expect(429);
    expect(limited.body).toMatchObject({ error: 'Too Many Requests', statusCode: 429, retryAfter: expect.any(Number) });
    await report({ url, category: 'spam' }, '192.0.2.100').expect(201);
  });

  it('abuse:list and abuse:resolve --action block-link: the link answers the disabled page', async () => {
    const link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/r3', customCode: 'Reported1' }).expect(201)).body;
    await visit('Reported1').expect(302);
    const { id } = (await report({ url: `${base()}/Reported1`, category: 'malware' }).expect(201)).body;
    const open = await cli('abuse:list', '--status', 'open');
    expect(open.json!.reports.find((r: { id: string }) => r.id === id)).toMatchObject({ id, linkId: link.id, organizationId: w.a.organization.id, category: 'malware', status: 'open' });
    const resolved = await cli('abuse:resolve', id, '--action', 'block-link', '--note', 'confirmed');
    expect(resolved).toEqual({ code: 0, json: { id, status: 'link-blocked', linkId: link.id, organizationId: w.a.organization.id } });
    await waitFor(async () => (await visit('Reported1')).status === 403, 2000);
    expect((await w.http().get(`/api/links/${link.id}`).expect(200)).body.safety).toMatchObject({ status: 'blocked', reason: 'reported: malware' });
    expect((await cli('abuse:resolve', id, '--action', 'nonsense')).code).toBe(2);
  });

  it('org:suspend disables every link and refuses keys and sessions (403 Organization suspended); org:unsuspend restores them, nothing deleted', async () => {
    await w.http(w.keyB).post('/api/links', { templateId: w.b.template.id, originalUrl: 'https://example.com/b', customCode: 'OrgBLink1' }).expect(201);
    await visit('OrgBLink1').expect(302);
    // Both credentials used (and cached) before the suspension.
    await w.http(w.b.owner.jwt).get('/api/links').expect(200);
    expect((await cli('org:suspend', w.b.organization.id, '--reason', 'phishing wave')).code).toBe(0);
    for (const credential of [w.keyB, w.b.owner.jwt]) {
      const refused = await w.http(credential).get('/api/links').expect(403);
      expect(refused.body).toEqual({ error: 'Forbidden', message: 'Organization suspended', statusCode: 403 });
    }
    await waitFor(async () => (await visit('OrgBLink1')).status === 403, 2000);
    expect((await visit('OrgBLink1')).text).toContain('Reason: organization suspended.');
    // Another organization is untouched.
    await w.http().get('/api/links').expect(200);
    expect((await cli('org:unsuspend', w.b.organization.id)).code).toBe(0);
    expect((await w.http(w.keyB).get('/api/links').expect(200)).body).toHaveLength(1);
    await w.http(w.b.owner.jwt).get('/api/links').expect(200);
    await waitFor(async () => (await visit('OrgBLink1')).status === 302, 2000);
  });

  it('abuse:resolve --action dismiss only closes the report; --action suspend-org suspends the link\'s organization', async () => {
    await w.http(w.keyB).post('/api/links', { templateId: w.b.template.id, originalUrl: 'https://example.com/b2', customCode: 'OrgBLink2' }).expect(201);
    const first = (await report({ url: `${base()}/OrgBLink2`, category: 'spam' }, '192.0.2.30').expect(201)).body.id;
    expect(await cli('abuse:resolve', first, '--action', 'dismiss', '--note', 'a newsletter')).toEqual({
      code: 0,
      json: { id: first, status: 'dismissed', linkId: expect.any(String), organizationId: w.b.organization.id },
    });
    await visit('OrgBLink2').expect(302);
    await w.http(w.keyB).get('/api/links').expect(200);
    const listed = (status: string) => cli('abuse:list', '--status', status).then((r) => r.json!.reports.map((x: { id: string }) => x.id));
    expect(await listed('dismissed')).toContain(first);
    expect(await listed('open')).not.toContain(first);
    expect((await cli('abuse:list')).json!.reports.find((x: { id: string }) => x.id === first)).toMatchObject({ status: 'dismissed', resolutionNote: 'a newsletter', resolvedAt: expect.any(String) });

    const second = (await report({ url: `${base()}/OrgBLink2`, category: 'phishing' }, '192.0.2.30').expect(201)).body.id;
    expect((await cli('abuse:resolve', second, '--action', 'suspend-org', '--note', 'phishing campaign')).json).toMatchObject({ id: second, status: 'org-suspended' });
    expect((await w.http(w.keyB).get('/api/links').expect(403)).body).toEqual({ error: 'Forbidden', message: 'Organization suspended', statusCode: 403 });
    await waitFor(async () => (await visit('OrgBLink2')).status === 403, 2000);
    expect((await w.env.prisma.organization.findUniqueOrThrow({ where: { id: w.b.organization.id } })).suspensionReason).toBe('phishing campaign');
    expect((await cli('org:unsuspend', w.b.organization.id)).code).toBe(0);
  });
});

describe('the new-organization link cap', () => {
  it('a FREE organization in its first day creates at most NEW_ORG_LINK_LIMIT links (403); older or paid ones are not capped by it', async () => {
    const w = await linksWorld({ tierA: 'FREE', env: { NEW_ORG_LINK_LIMIT: '3' } });
    try {
      const create = (key = w.keyA, template = w.a.template.id) => w.http(key).post('/api/links', { templateId: template, originalUrl: 'https://example.com/n' });
      for (let i = 0; i < 3; i++) await create().expect(201);
      expect((await create().expect(403)).body).toEqual({ error: 'Forbidden', message: 'New organizations can create at most 3 links in their first day', statusCode: 403 });
      const bulk = await w.http().post('/api/links/bulk-create', { links: [{ templateId: w.a.template.id, originalUrl: 'https://example.com/b' }] }).expect(403);
      expect(bulk.body.message).toBe('New organizations can create at most 3 links in their first day');
      // The import is capped by the same count: nothing fits.
      const imported = await request(w.api.url)
        .post('/migrations/import')
        .set('Authorization', `Bearer ${w.keyA}`)
        .field('platform', 'bitly')
        .field('templateId', w.a.template.id)
        .attach('file', Buffer.from('webUrl\nhttps://example.com/i\n'), { filename: 'links.csv', contentType: 'text/csv' })
        .expect(403);
      expect(imported.body).toEqual({ error: 'Forbidden', message: 'Link limit exceeded for your organization: the file would create 1 links and 0 fit', statusCode: 403 });
      // B is PRO: not capped.
      for (let i = 0; i < 4; i++) await create(w.keyB, w.b.template.id).expect(201);
      // A day later A may go on.
      await w.env.prisma.organization.update({ where: { id: w.a.organization.id }, data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) } });
      await create().expect(201);
    } finally {
      await w.close();
    }
  });
});
