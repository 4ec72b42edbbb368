import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { Tier } from '@dl/platform/db';
import { clientAs, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, startDnsServer, TestDnsServer, TestEnv } from '@dl/testing';
import { bad, notFound } from './test/links-setup';

type Item = { id: string; shortCode: string; domain: string; title: string | null; originalUrl: string; safety?: unknown };

/**
 * GET /api/links filters and keyset pages, GET /api/tags (decisions §16). Organization A has
 * links on the service host and on its verified go.list.test; B has look-alike links that must
 * never show up in A's answers.
 */
describe('links: list filters, pages and tags', () => {
  let env: TestEnv;
  let dns: TestDnsServer;
  let api: RunningApp;
  let a: SeededOrganization;
  let b: SeededOrganization;
  let projectId: string;
  const ids: Record<string, string> = {};

  const as = (org: SeededOrganization) => clientAs(api.url, org.owner.apiKey);
  const list = async (query: string, org = a): Promise<string[]> =>
    (await as(org).get(`/api/links${query}`).expect(200)).body.map((l: Item) => l.id);
  const named = (...names: string[]) => names.map((n) => ids[n]);
  /** What a filter must answer: A's links in list order (newest first) that pass `keep`. */
  const expected = async (keep: (name: string) => boolean) => (await list('')).filter((id) => keep(Object.keys(ids).find((n) => ids[n] === id)!));

  beforeAll(async () => {
    dns = await startDnsServer();
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address });
    [a, b] = await Promise.all([seedOrganization(env, { tier: Tier.BUSINESS }), seedOrganization(env, { tier: Tier.BUSINESS })]);
    api = await startApp(createApiApp, env.config);
    const d = (await as(a).post('/api/domains', { domain: 'go.list.test' }).expect(201)).body;
    dns.setTxt(d.verification.name, [d.verification.value]);
    await as(a).post(`/api/domains/${d.id}/verify`).expect(200);
    projectId = (await as(a).post('/api/projects', { name: 'Spring' }).expect(201)).body.id;

    const make = async (org: SeededOrganization, name: string, body: object) => {
      const res = await as(org).post('/api/links', { templateId: org.template.id, originalUrl: 'https://example.com/x', ...body });
      if (res.status !== 201) throw new Error(`arranging ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      ids[name] = res.body.id;
    };
    // Sequential: distinct created_at order.
    await make(a, 'summer', { title: 'Summer SALE', originalUrl: 'https://shop.example/summer', tags: ['Launch', 'Q3'] });
    await make(a, 'winter', { title: 'Winter', originalUrl: 'https://shop.example/winter', tags: ['q4'], projectId });
    await make(a, 'code', { customCode: 'Sale2026', originalUrl: 'https://blog.example/post', tags: ['launch'] });
    await make(a, 'percent', { title: '100% off', originalUrl: 'https://deals.example/a_b' });
    await make(a, 'branded', { domain: 'go.list.test', customCode: 'spring', title: 'Spring sale', projectId, tags: ['LAUNCH'] });
    await make(a, 'inactive', { title: 'Old sale', originalUrl: 'https://shop.example/old' });
    await as(a).put(`/api/links/${ids.inactive}`, { isActive: false }).expect(200);
    await make(b, 'foreign', { title: 'Summer sale of B', tags: ['Launch', 'Secret'] });
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
    await dns?.close();
  });

  it('without filters: every link of the organization, newest first, the list item shape, no cursor header', async () => {
    const res = await as(a).get('/api/links').expect(200);
    expect(res.headers['x-next-cursor']).toBeUndefined();
    expect(res.body.map((l: Item) => l.id)).toEqual(named('inactive', 'branded', 'percent', 'code', 'winter', 'summer'));
    expect(Object.keys(res.body[1]).sort()).toEqual(
      ['clickCount', 'createdAt', 'domain', 'id', 'originalUrl', 'safety', 'shortCode', 'shortUrl', 'templateSlug', 'title'].sort(),
    );
    expect(res.body[1]).toMatchObject({ domain: 'go.list.test', shortCode: 'spring', shortUrl: 'https://go.list.test/spring' });
  });

  it('each item carries `safety` exactly as the single read shows it, on whole lists and on pages (decisions §22)', async () => {
    await env.prisma.link.update({ where: { id: ids.code }, data: { safetyStatus: 'suspicious', safetyReason: 'mixed scripts', safetyCheckedAt: new Date('2026-01-02T03:04:05.678Z') } });
    const whole = (await as(a).get('/api/links').expect(200)).body as Item[];
    const page = (await as(a).get('/api/links?limit=3').expect(200)).body as Item[];
    for (const item of [...whole, ...page]) {
      expect(item.safety).toEqual((await as(a).get(`/api/links/${item.id}`).expect(200)).body.safety);
    }
    expect(whole.find((l) => l.id === ids.code)?.safety).toEqual({ status: 'suspicious', reason: 'mixed scripts', checkedAt: '2026-01-02T03:04:05.678Z' });
    expect(whole.find((l) => l.id === ids.summer)?.safety).toMatchObject({ status: 'ok', reason: null });
  });

  it('search: case-insensitive substring of title, short code or destination; LIKE wildcards are literal', async () => {
    expect(await list('?search=SALE')).toEqual(named('inactive', 'branded', 'code', 'summer'));
    expect(await list('?search=blog.EXAMPLE/po')).toEqual(named('code'));
    expect(await list('?search=spring')).toEqual(named('branded'));
    expect(await list('?search=100%25')).toEqual(named('percent'));
    expect(await list('?search=%25')).toEqual(named('percent'));
    expect(await list('?search=a_b')).toEqual(named('percent'));
    expect(await list('?search=_')).toEqual(named('percent'));
    expect(await list('?search=le20')).toEqual(named('code'));
    expect(await list('?search=nothing-like-this')).toEqual([]);
    expect(await list('?search=')).toEqual(await list(''));
    expect(await list('?search=summer', b)).toEqual(named('foreign'));
  });

  it('tag: any of the given tags, case-insensitive, repeatable', async () => {
    expect(await list('?tag=launch')).toEqual(named('branded', 'code', 'summer'));
    expect(await list('?tag=Q4&tag=q3')).toEqual(named('winter', 'summer'));
    expect(await list('?tag=secret')).toEqual([]);
    expect(await list('?tag=nope')).toEqual([]);
  });

  it('projectId, domain and isActive, each alone and combined with the others', async () => {
    expect(await list(`?projectId=${projectId}`)).toEqual(named('branded', 'winter'));
    expect(await list('?domain=go.list.test')).toEqual(named('branded'));
    expect(await list('?domain=GO.LIST.TEST')).toEqual(named('branded'));
    const onHost = await expected((n) => n !== 'branded');
    expect(await list('?domain=')).toEqual(onHost);
    expect(await list('?domain=sho.rt')).toEqual(onHost);
    expect(await list('?domain=go.other.test')).toEqual([]);
    expect(await list('?isActive=false')).toEqual(named('inactive'));
    expect(await list('?isActive=true')).toEqual(await expected((n) => n !== 'inactive'));
    expect(await list(`?search=sale&tag=launch&projectId=${projectId}&domain=go.list.test&isActive=true`)).toEqual(named('branded'));
    expect(await list(`?search=sale&tag=launch&domain=`)).toEqual(named('code', 'summer'));
    expect(await list('?search=sale&isActive=false&tag=launch')).toEqual([]);
  });

  it('limit + cursor walk every match once, in list order; the last page has no X-Next-Cursor', async () => {
    const all = await list('');
    for (const limit of [1, 2, 4, 6, 1000]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await as(a).get(`/api/links?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
        expect(res.body.length).toBeLessThanOrEqual(limit);
        seen.push(...res.body.map((l: Item) => l.id));
        cursor = res.headers['x-next-cursor'];
        if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        pages++;
      } while (cursor && pages < 20);
      expect([limit, seen]).toEqual([limit, all]);
      expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
    }
    // Filters and pages combine; a cursor without limit answers everything after it.
    const first = await as(a).get('/api/links?search=sale&limit=2').expect(200);
    expect(first.body.map((l: Item) => l.id)).toEqual(named('inactive', 'branded'));
    const rest = await as(a).get(`/api/links?search=sale&cursor=${first.headers['x-next-cursor']}`).expect(200);
    expect(rest.headers['x-next-cursor']).toBeUndefined();
    expect(rest.body.map((l: Item) => l.id)).toEqual(named('code', 'summer'));
  });

  it('bad values → 400 in the contract shape naming the parameter; a foreign project → 404', async () => {
    // One refusal of the query and one of the service over HTTP; every rule of the query is in
    // links.dto.spec.ts (the pipe and the cursor).
    const cases: Array<[string, string, Record<string, string>]> = [
      ['?limit=0', 'Limit must be between 1 and 1000', { limit: 'Must be between 1 and 1000' }],
      ['?domain=http://x.test/a', 'Validation error', { domain: 'Must be a domain name' }],
    ];
    for (const [query, message, validation] of cases) {
      const res = await as(a).get(`/api/links${query}`);
      expect([query, res.status, res.body]).toEqual([query, 400, bad(message, validation)]);
    }
    const foreignProject = (await as(b).post('/api/projects', { name: 'B' }).expect(201)).body.id;
    expect((await as(a).get(`/api/links?projectId=${foreignProject}&limit=5`).expect(404)).body).toEqual(notFound('Project not found'));
  });

  it("GET /api/tags: the organization's tags with counts, case-insensitive, most used first; 401 without credentials", async () => {
    const res = await as(a).get('/api/tags').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      tags: [
        { name: expect.stringMatching(/^(launch|Launch|LAUNCH)$/), count: 3 },
        { name: 'Q3', count: 1 },
        { name: 'q4', count: 1 },
      ],
    });
    expect((await as(b).get('/api/tags').expect(200)).body).toEqual({ tags: [{ name: 'Launch', count: 1 }, { name: 'Secret', count: 1 }] });
    const fresh = await seedOrganization(env, { tier: Tier.FREE });
    expect((await as(fresh).get('/api/tags').expect(200)).body).toEqual({ tags: [] });
    const anon = await request(api.url).get('/api/tags').expect(401);
    expect(anon.body).toMatchObject({ error: 'Unauthorized', statusCode: 401 });
  });
});
