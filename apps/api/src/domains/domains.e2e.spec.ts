import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { DomainsService } from '@dl/domains';
import { Role, Tier } from '@dl/platform/db';
import { addMember, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, startDnsServer, TestDnsServer, TestEnv } from '@dl/testing';
import { bad, conflict, forbidden, notFound } from '../links/test/links-setup';

const DAY = 24 * 3600_000;

describe('domains: /api/domains (decisions §15)', () => {
  let env: TestEnv;
  let dns: TestDnsServer;
  let api: RunningApp;
  let a: SeededOrganization;
  let b: SeededOrganization;
  let free: SeededOrganization;
  let viewer: string;
  let member: string;
  let admin: string;

  const as = (key: string) => ({
    get: (path: string) => request(api.url).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body?: object) => request(api.url).post(path).set('Authorization', `Bearer ${key}`).send(body),
    patch: (path: string, body?: object) => request(api.url).patch(path).set('Authorization', `Bearer ${key}`).send(body),
    del: (path: string) => request(api.url).delete(path).set('Authorization', `Bearer ${key}`),
  });
  const A = () => as(a.owner.apiKey);
  const publish = (d: { verification: { name: string; value: string } }) => dns.setTxt(d.verification.name, [d.verification.value]);

  beforeAll(async () => {
    dns = await startDnsServer();
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address, SERVICE_HOSTS: 'links.sho.rt, edge.sho.rt' });
    [a, b, free] = await Promise.all([
      seedOrganization(env, { tier: Tier.PRO, name: 'Org A' }),
      seedOrganization(env, { tier: Tier.UNLIMITED, name: 'Org B' }),
      seedOrganization(env, { tier: Tier.FREE, name: 'Free' }),
    ]);
    [viewer, member, admin] = (
      await Promise.all([Role.VIEWER, Role.MEMBER, Role.ADMIN].map((r) => addMember(env, a.organization.id, r)))
    ).map((u) => u.apiKey);
    api = await startApp(createApiApp, env.config);
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
    await dns?.close();
  });

  it('create answers the pending domain with its TXT record; list and read answer the same shape', async () => {
    const res = await A().post('/api/domains', { domain: 'go.a.test' }).expect(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      domain: 'go.a.test',
      status: 'pending',
      verification: { type: 'TXT', name: '_dl-verify.go.a.test', value: expect.stringMatching(/^dl-verify=[0-9a-f]{32}$/) },
      isDefault: false,
      rootRedirectUrl: null,
      notFoundUrl: null,
      createdAt: expect.any(String),
      verifiedAt: null,
      lastCheckedAt: null,
      verificationError: null,
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
    expect((await A().get('/api/domains').expect(200)).body).toContainEqual(res.body);
    expect((await A().get(`/api/domains/${res.body.id}`).expect(200)).body).toEqual(res.body);
    // Any role reads.
    expect((await as(viewer).get(`/api/domains/${res.body.id}`).expect(200)).body).toEqual(res.body);
    expect((await as(member).get('/api/domains').expect(200)).body).toContainEqual(res.body);
    await A().del(`/api/domains/${res.body.id}`).expect(200);
  });

  it('stores upper case lower-cased and an IDN as punycode', async () => {
    const upper = await as(b.owner.apiKey).post('/api/domains', { domain: 'Links.UPPER.Test' }).expect(201);
    expect(upper.body).toMatchObject({ domain: 'links.upper.test', verification: { name: '_dl-verify.links.upper.test' } });
    const idn = await as(b.owner.apiKey).post('/api/domains', { domain: 'bücher.example' }).expect(201);
    expect(idn.body).toMatchObject({ domain: 'xn--bcher-kva.example', verification: { name: '_dl-verify.xn--bcher-kva.example' } });
  });

  const invalid = bad('Validation error', { domain: 'Must be a valid domain name' });
  // One refusal of each kind over HTTP; every name rule: libs/domains/src/domain-name.spec.ts,
  // the body's: domain.dto.spec.ts, the service's own hosts: domains.service.medium.spec.ts.
  it.each([
    ['a scheme', 'https://go.acme.test'],
    ["the service's own short-link host", 'sho.rt'],
    ['a host of SERVICE_HOSTS', 'links.sho.rt'],
    ['null', null],
  ])('refuses %s → 400 validation.domain', async (_label, domain) => {
    expect((await A().post('/api/domains', { domain }).expect(400)).body).toEqual(invalid);
  });

  it('normalises Unicode spellings to one stored name, so two spellings of one name conflict', async () => {
    const B = as(b.owner.apiKey);
    const sharp = await B.post('/api/domains', { domain: 'straße.test' }).expect(201);
    expect(sharp.body.domain).toBe('xn--strae-oqa.test');
    const dots = await B.post('/api/domains', { domain: 'Links\u3002Dots\u3002test' }).expect(201); // ideographic full stops
    expect(dots.body.domain).toBe('links.dots.test');
    // bücher.example is stored (above) as punycode: its upper-case and punycode spellings are the same name.
    for (const spelling of ['BÜCHER.example', 'xn--bcher-kva.example', 'XN--BCHER-KVA.EXAMPLE']) {
      expect((await B.post('/api/domains', { domain: spelling }).expect(409)).body).toEqual(conflict("Domain 'xn--bcher-kva.example' is already in use"));
    }
    for (const d of [sharp.body, dots.body]) await B.del(`/api/domains/${d.id}`).expect(200);
  });

  it('refuses a missing domain and unknown fields; nothing is written', async () => {
    const before = await env.prisma.domain.count();
    expect((await A().post('/api/domains', {}).expect(400)).body).toEqual(invalid);
    expect((await A().post('/api/domains', { domain: 'ok.acme.test', isDefault: true }).expect(400)).body).toEqual(
      bad('Validation error', { isDefault: 'Unknown field' }),
    );
    expect(await env.prisma.domain.count()).toBe(before);
  });

  it('a name is unique within an organization, whatever its case → 409', async () => {
    await as(b.owner.apiKey).post('/api/domains', { domain: 'taken.test' }).expect(201);
    expect((await as(b.owner.apiKey).post('/api/domains', { domain: 'TAKEN.test' }).expect(409)).body).toEqual(
      conflict("Domain 'taken.test' is already in use"),
    );
  });

  it('claims (decisions §22): pending claims never block; the first to verify (here the second claimant, the DNS owner) wins and the others are removed', async () => {
    const [one, two] = await Promise.all([seedOrganization(env, { tier: Tier.PRO }), seedOrganization(env, { tier: Tier.PRO })]);
    const O = as(one.owner.apiKey);
    const T = as(two.owner.apiKey);
    // Both claim the name: neither learns about the other.
    const mine = (await O.post('/api/domains', { domain: 'claimed.test' }).expect(201)).body;
    const theirs = (await T.post('/api/domains', { domain: 'Claimed.TEST' }).expect(201)).body;
    expect(theirs).toMatchObject({ domain: 'claimed.test', status: 'pending' });
    expect(theirs.verification.value).not.toBe(mine.verification.value);
    // Own duplicate → 409.
    expect((await O.post('/api/domains', { domain: 'claimed.test' }).expect(409)).body).toEqual(conflict("Domain 'claimed.test' is already in use"));

    // The second claimant owns the DNS: the earlier pending claim does not stand in its way.
    publish(theirs);
    expect((await T.post(`/api/domains/${theirs.id}/verify`).expect(200)).body).toMatchObject({ status: 'verified' });
    // The other pending claim is gone.
    expect((await O.get(`/api/domains/${mine.id}`).expect(404)).body).toEqual(notFound('Domain not found'));
    expect((await O.post(`/api/domains/${mine.id}/verify`).expect(404)).body).toEqual(notFound('Domain not found'));
    expect((await O.get('/api/domains').expect(200)).body).toEqual([]);
    // A name another organization has verified → 409.
    expect((await O.post('/api/domains', { domain: 'claimed.test' }).expect(409)).body).toEqual(conflict("Domain 'claimed.test' is already in use"));
    expect((await T.get(`/api/domains/${theirs.id}`).expect(200)).body).toMatchObject({ status: 'verified' });
    dns.setTxt(theirs.verification.name, null);
  });

  it('plan limits: FREE 1, PRO 3 → 403 Domain limit reached for your plan', async () => {
    const F = as(free.owner.apiKey);
    await F.post('/api/domains', { domain: 'one.free.test' }).expect(201);
    expect((await F.post('/api/domains', { domain: 'two.free.test' }).expect(403)).body).toEqual(forbidden('Domain limit reached for your plan'));
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await A().post('/api/domains', { domain: `p${n}.pro.test` }).expect(201)).body.id);
    expect((await A().post('/api/domains', { domain: 'p4.pro.test' }).expect(403)).body).toEqual(forbidden('Domain limit reached for your plan'));
    for (const id of ids) await A().del(`/api/domains/${id}`).expect(200);
  });

  it('races: 12 concurrent creates on a FREE plan make one domain; one name asked at once by two organizations makes one claim each', async () => {
    const [racer, rival] = await Promise.all([seedOrganization(env, { tier: Tier.FREE }), seedOrganization(env, { tier: Tier.UNLIMITED })]);
    const R = as(racer.owner.apiKey);
    const limited = await Promise.all(Array.from({ length: 12 }, (_, i) => R.post('/api/domains', { domain: `race${i}.free.test` })));
    expect(limited.map((r) => r.status).sort()).toEqual([201, ...Array(11).fill(403)]);
    expect(await env.prisma.domain.count({ where: { organizationId: racer.organization.id } })).toBe(1);
    await R.del(`/api/domains/${limited.find((r) => r.status === 201)!.body.id}`).expect(200);

    const same = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? as(rival.owner.apiKey) : R).post('/api/domains', { domain: i % 3 ? 'contested.test' : 'CONTESTED.test' })),
    );
    expect(same.map((r) => r.status).sort()).toEqual([201, 201, ...Array(10).fill(409)]);
    for (const r of same.filter((x) => x.status === 409)) expect(r.body).toEqual(conflict("Domain 'contested.test' is already in use"));
    const claims = await env.prisma.domain.findMany({ where: { domain: 'contested.test' } });
    expect(claims.map((d) => d.organizationId).sort()).toEqual([racer.organization.id, rival.organization.id].sort());
  });

  it('races: concurrent PATCH isDefault on several verified domains leaves exactly one default', async () => {
    const B = as(b.owner.apiKey);
    const ds = [];
    for (const n of [1, 2, 3, 4]) {
      const d = (await B.post('/api/domains', { domain: `def${n}.b.test` }).expect(201)).body;
      publish(d);
      await B.post(`/api/domains/${d.id}/verify`).expect(200);
      ds.push(d);
    }
    const answers = await Promise.all(ds.flatMap((d) => [B.patch(`/api/domains/${d.id}`, { isDefault: true }), B.patch(`/api/domains/${d.id}`, { isDefault: true })]));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const defaults = (await B.get('/api/domains').expect(200)).body.filter((d: { isDefault: boolean }) => d.isDefault);
    expect(defaults).toHaveLength(1);
    for (const d of ds) await B.del(`/api/domains/${d.id}`).expect(200);
  });

  it('Admin manages; Member and Viewer only read', async () => {
    const d = (await as(admin).post('/api/domains', { domain: 'admin.a.test' }).expect(201)).body;
    for (const key of [member, viewer]) {
      const role = forbidden('Your role does not allow this action');
      expect((await as(key).post('/api/domains', { domain: 'nope.a.test' }).expect(403)).body).toEqual(role);
      expect((await as(key).patch(`/api/domains/${d.id}`, { notFoundUrl: null }).expect(403)).body).toEqual(role);
      expect((await as(key).post(`/api/domains/${d.id}/verify`).expect(403)).body).toEqual(role);
      expect((await as(key).del(`/api/domains/${d.id}`).expect(403)).body).toEqual(role);
    }
    await as(admin).post(`/api/domains/${d.id}/verify`).expect(200);
    await as(admin).del(`/api/domains/${d.id}`).expect(200);
  });

  it('verify now: pending with the reason until the TXT record is there, then verified (200 either way)', async () => {
    const d = (await A().post('/api/domains', { domain: 'verify.a.test' }).expect(201)).body;
    const pending = await A().post(`/api/domains/${d.id}/verify`).expect(200);
    expect(pending.body).toMatchObject({
      status: 'pending',
      verifiedAt: null,
      verificationError: 'No TXT record found at _dl-verify.verify.a.test',
      lastCheckedAt: expect.any(String),
    });
    dns.setTxt('_dl-verify.verify.a.test', ['dl-verify=00000000000000000000000000000000']);
    expect((await A().post(`/api/domains/${d.id}/verify`).expect(200)).body).toMatchObject({
      status: 'pending',
      verificationError: `The TXT record at _dl-verify.verify.a.test does not contain ${d.verification.value}`,
    });
    publish(d);
    const verified = await A().post(`/api/domains/${d.id}/verify`).expect(200);
    expect(verified.body).toEqual({
      ...d,
      status: 'verified',
      verifiedAt: expect.any(String),
      lastCheckedAt: verified.body.verifiedAt,
      verificationError: null,
    });
    await A().del(`/api/domains/${d.id}`).expect(200);
  });

  it('PATCH: only a verified domain can be default; one default per organization; URLs set and cleared', async () => {
    const one = (await A().post('/api/domains', { domain: 'one.a.test' }).expect(201)).body;
    const two = (await A().post('/api/domains', { domain: 'two.a.test' }).expect(201)).body;
    expect((await A().patch(`/api/domains/${one.id}`, { isDefault: true }).expect(400)).body).toEqual(
      bad('Validation error', { isDefault: 'Only a verified domain can be the default' }),
    );
    publish(one);
    publish(two);
    await A().post(`/api/domains/${one.id}/verify`).expect(200);
    await A().post(`/api/domains/${two.id}/verify`).expect(200);
    expect((await A().patch(`/api/domains/${one.id}`, { isDefault: true }).expect(200)).body.isDefault).toBe(true);
    expect((await A().patch(`/api/domains/${two.id}`, { isDefault: true }).expect(200)).body.isDefault).toBe(true);
    const list = (await A().get('/api/domains').expect(200)).body as Array<{ id: string; isDefault: boolean }>;
    expect(list.filter((x) => x.isDefault).map((x) => x.id)).toEqual([two.id]);

    const set = await A()
      .patch(`/api/domains/${two.id}`, { rootRedirectUrl: 'https://www.a.test/', notFoundUrl: 'https://www.a.test/404' })
      .expect(200);
    expect(set.body).toMatchObject({ isDefault: true, rootRedirectUrl: 'https://www.a.test/', notFoundUrl: 'https://www.a.test/404' });
    const cleared = await A().patch(`/api/domains/${two.id}`, { rootRedirectUrl: null, isDefault: false }).expect(200);
    expect(cleared.body).toMatchObject({ isDefault: false, rootRedirectUrl: null, notFoundUrl: 'https://www.a.test/404' });

    expect((await A().patch(`/api/domains/${two.id}`, {}).expect(400)).body).toEqual(bad('No updates provided'));
    expect((await A().patch(`/api/domains/${two.id}`, { rootRedirectUrl: 'javascript:alert(1)', notFoundUrl: 'not a url', isDefault: 'yes' }).expect(400)).body).toEqual(
      bad('Validation error', { rootRedirectUrl: 'Must be a valid URL', notFoundUrl: 'Must be a valid URL', isDefault: 'Must be a boolean' }),
    );
    expect((await A().patch(`/api/domains/${two.id}`, { domain: 'other.a.test' }).expect(400)).body).toEqual(
      bad('Validation error', { domain: 'Unknown field' }),
    );
    for (const d of [one, two]) await A().del(`/api/domains/${d.id}`).expect(200);
  });

  it('PATCH URLs are stored in their WHATWG form (IDN host in punycode, non-ASCII percent-encoded)', async () => {
    const d = (await A().post('/api/domains', { domain: 'urls.a.test' }).expect(201)).body;
    const res = await A()
      .patch(`/api/domains/${d.id}`, { rootRedirectUrl: 'https://Bücher.example/ä?q=ü#top', notFoundUrl: 'HTTP://WWW.A.TEST:80/NotFound' })
      .expect(200);
    const stored = { rootRedirectUrl: 'https://xn--bcher-kva.example/%C3%A4?q=%C3%BC#top', notFoundUrl: 'http://www.a.test/NotFound' };
    expect(res.body).toMatchObject(stored);
    expect((await A().get(`/api/domains/${d.id}`).expect(200)).body).toMatchObject(stored);
    expect(await env.prisma.domain.findUniqueOrThrow({ where: { id: d.id }, select: { rootRedirectUrl: true, notFoundUrl: true } })).toEqual(stored);
    await A().del(`/api/domains/${d.id}`).expect(200);
  });

  it('PATCH refuses a bad URL beside a good one → 400, nothing written', async () => {
    const d = (await A().post('/api/domains', { domain: 'badurl.a.test' }).expect(201)).body;
    try {
      await A().patch(`/api/domains/${d.id}`, { rootRedirectUrl: 'https://www.a.test/' }).expect(200);
      const res = await A().patch(`/api/domains/${d.id}`, { rootRedirectUrl: 'https://www.a.test/new', notFoundUrl: 'https://www.a.test/\r\nSet-Cookie: x=1' }).expect(400);
      expect(res.body).toEqual(bad('Validation error', { notFoundUrl: 'Must be a valid URL' }));
      expect((await A().get(`/api/domains/${d.id}`).expect(200)).body).toMatchObject({ rootRedirectUrl: 'https://www.a.test/', notFoundUrl: null });
    } finally {
      await A().del(`/api/domains/${d.id}`).expect(200);
    }
  });

  it('a foreign or missing domain answers 404 Domain not found; a bad id 400', async () => {
    const mine = (await as(b.owner.apiKey).post('/api/domains', { domain: 'foreign.b.test' }).expect(201)).body;
    const missing = notFound('Domain not found');
    expect((await A().get(`/api/domains/${mine.id}`).expect(404)).body).toEqual(missing);
    expect((await A().patch(`/api/domains/${mine.id}`, { notFoundUrl: null }).expect(404)).body).toEqual(missing);
    expect((await A().post(`/api/domains/${mine.id}/verify`).expect(404)).body).toEqual(missing);
    expect((await A().del(`/api/domains/${mine.id}`).expect(404)).body).toEqual(missing);
    expect((await A().get('/api/domains').expect(200)).body.map((d: { id: string }) => d.id)).not.toContain(mine.id);
    expect((await A().get('/api/domains/not-a-uuid').expect(400)).body).toEqual(bad('Validation error', { id: 'Must be a valid UUID' }));
    await as(b.owner.apiKey).get(`/api/domains/${mine.id}`).expect(200);
  });

  it('re-checks: pending every 10 minutes for 7 days; verified daily, invalid after 3 failed days in a row', async () => {
    const service = api.app.get(DomainsService);
    const d = (await as(b.owner.apiKey).post('/api/domains', { domain: 'recheck.b.test' }).expect(201)).body;
    const created = new Date(d.createdAt).getTime();
    const read = async () => (await as(b.owner.apiKey).get(`/api/domains/${d.id}`).expect(200)).body;
    const at = (ms: number) => new Date(created + ms);

    await service.recheckDue(at(60_000));
    expect(await read()).toMatchObject({ status: 'pending', lastCheckedAt: at(60_000).toISOString() });
    await service.recheckDue(at(5 * 60_000)); // not due yet
    expect((await read()).lastCheckedAt).toBe(at(60_000).toISOString());
    publish(d);
    await service.recheckDue(at(11 * 60_000));
    expect(await read()).toMatchObject({ status: 'verified', verifiedAt: at(11 * 60_000).toISOString() });

    dns.setTxt(d.verification.name, null);
    await service.recheckDue(at(12 * 3600_000)); // verified: daily only
    expect((await read()).lastCheckedAt).toBe(at(11 * 60_000).toISOString());
    for (const day of [1, 2]) {
      await service.recheckDue(at(day * DAY + 11 * 60_000));
      expect(await read()).toMatchObject({ status: 'verified', verificationError: `No TXT record found at ${d.verification.name}` });
    }
    await service.recheckDue(at(3 * DAY + 11 * 60_000));
    expect(await read()).toMatchObject({ status: 'invalid' });

    // A pending domain not verified within 7 days is removed by the schedule (decisions §22).
    const old = (await as(b.owner.apiKey).post('/api/domains', { domain: 'old.b.test' }).expect(201)).body;
    const young = (await as(b.owner.apiKey).post('/api/domains', { domain: 'young.b.test' }).expect(201)).body;
    await env.prisma.domain.update({ where: { id: old.id }, data: { createdAt: new Date(Date.now() - 8 * DAY) } });
    await service.recheckDue(new Date());
    expect((await as(b.owner.apiKey).get(`/api/domains/${old.id}`).expect(404)).body).toEqual(notFound('Domain not found'));
    expect((await as(b.owner.apiKey).get(`/api/domains/${young.id}`).expect(200)).body).toMatchObject({ status: 'pending' });
    expect((await as(b.owner.apiKey).get(`/api/domains/${d.id}`).expect(200)).body).toMatchObject({ status: 'invalid' });
  });
});
