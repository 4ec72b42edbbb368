import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { Tier } from '@dl/platform/db';
import { clientAs, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, startDnsServer, TestDnsServer, TestEnv } from '@dl/testing';
import { bad, conflict } from '../links/test/links-setup';

/** Links on branded domains (decisions §15): two organizations own go.a.test and go.b.test, each with a link coded `spring`. */
describe('links on branded domains', () => {
  let env: TestEnv;
  let dns: TestDnsServer;
  let api: RunningApp;
  let a: SeededOrganization;
  let b: SeededOrganization;
  const ids: Record<string, string> = {};

  const as = (org: SeededOrganization) => clientAs(api.url, org.owner.apiKey);

  async function verifiedDomain(org: SeededOrganization, name: string): Promise<string> {
    const d = (await as(org).post('/api/domains', { domain: name }).expect(201)).body;
    dns.setTxt(d.verification.name, [d.verification.value]);
    await as(org).post(`/api/domains/${d.id}/verify`).expect(200);
    ids[name] = d.id;
    return d.id;
  }

  beforeAll(async () => {
    dns = await startDnsServer();
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address });
    [a, b] = await Promise.all([seedOrganization(env, { tier: Tier.BUSINESS }), seedOrganization(env, { tier: Tier.BUSINESS })]);
    api = await startApp(createApiApp, env.config);
    await verifiedDomain(a, 'go.a.test');
    await verifiedDomain(b, 'go.b.test');
    await verifiedDomain(a, 'second.a.test');
  });
  afterAll(async () => {
    await api?.close();
    await env?.teardown();
    await dns?.close();
  });

  const link = (org: SeededOrganization, extra: object) => ({ templateId: org.template.id, originalUrl: 'https://example.com/spring', ...extra });

  it('the same code lives on two domains and on the service host; answers carry domain and short_url', async () => {
    const onA = await as(a).post('/api/links', link(a, { domain: 'go.a.test', customCode: 'spring' })).expect(201);
    expect(onA.body).toMatchObject({ domain: 'go.a.test', short_code: 'spring', short_url: 'https://go.a.test/spring' });
    const onB = await as(b).post('/api/links', link(b, { domain: 'GO.B.TEST', customCode: 'spring' })).expect(201);
    expect(onB.body).toMatchObject({ domain: 'go.b.test', short_url: 'https://go.b.test/spring' });
    const onHost = await as(a).post('/api/links', link(a, { customCode: 'spring' })).expect(201);
    expect(onHost.body).toMatchObject({ domain: 'sho.rt', short_url: 'http://sho.rt/spring' });
    expect((await as(a).post('/api/links', link(a, { domain: 'go.a.test', customCode: 'spring' })).expect(409)).body).toEqual(
      conflict("Short code 'spring' is already in use"),
    );

    const read = await as(a).get(`/api/links/${onA.body.id}`).expect(200);
    expect(read.body).toMatchObject({ domain: 'go.a.test', shortCode: 'spring', shortUrl: 'https://go.a.test/spring' });
    const list = (await as(a).get('/api/links').expect(200)).body as Array<{ id: string; domain: string; shortUrl: string }>;
    expect(list.find((l) => l.id === onA.body.id)).toMatchObject({ domain: 'go.a.test', shortUrl: 'https://go.a.test/spring' });
    expect(list.find((l) => l.id === onHost.body.id)).toMatchObject({ domain: 'sho.rt', shortUrl: 'http://sho.rt/spring' });
  });

  it.each([
    ['pending', 'pending.a.test'],
    ['unknown', 'nowhere.a.test'],
    ['foreign', 'go.b.test'],
    ['malformed', 'https://go.a.test/'],
    ['trailing-dot', 'go.a.test.'],
    ['10 KB', `${'a'.repeat(10240)}.test`],
    ['number', 42],
    ['object', { name: 'go.a.test' }],
    ['array', ['go.a.test']],
    ['empty', ''],
  ])('a %s domain on a link → 400 validation.domain, nothing written', async (kind, domain) => {
    if (kind === 'pending') await as(a).post('/api/domains', { domain }).expect(201);
    const before = await env.prisma.link.count();
    const expected = bad('Validation error', { domain: 'Must be a verified domain of your organization' });
    expect((await as(a).post('/api/links', link(a, { domain })).expect(400)).body).toEqual(expected);
    expect((await as(a).post('/api/links/bulk-create', { links: [link(a, {}), link(a, { domain })] }).expect(400)).body).toEqual(
      bad('Validation error: links[1].domain: Must be a verified domain of your organization', { 'links[1].domain': 'Must be a verified domain of your organization' }),
    );
    expect(await env.prisma.link.count()).toBe(before);
  });

  it('a domain in another spelling (upper case, Unicode) names the same verified domain', async () => {
    expect((await as(a).post('/api/links', link(a, { domain: 'GO.A.Test' })).expect(201)).body).toMatchObject({ domain: 'go.a.test' });
    await verifiedDomain(a, 'bücher.a.test');
    for (const spelling of ['bücher.a.test', 'BÜCHER.A.TEST', 'xn--bcher-kva.a.test']) {
      const res = await as(a).post('/api/links', link(a, { domain: spelling })).expect(201);
      expect(res.body).toMatchObject({ domain: 'xn--bcher-kva.a.test', short_url: `https://xn--bcher-kva.a.test/${res.body.short_code}` });
    }
  });

  it('an invalid domain takes no new links', async () => {
    await env.prisma.domain.update({ where: { id: ids['second.a.test'] }, data: { status: 'invalid' } });
    try {
      expect((await as(a).post('/api/links', link(a, { domain: 'second.a.test' })).expect(400)).body.validation).toEqual({
        domain: 'Must be a verified domain of your organization',
      });
    } finally {
      await env.prisma.domain.update({ where: { id: ids['second.a.test'] }, data: { status: 'verified' } });
    }
  });

  it('without domain a link goes on the default domain; template defaults choose one too', async () => {
    await as(a).patch(`/api/domains/${ids['second.a.test']}`, { isDefault: true }).expect(200);
    try {
      expect((await as(a).post('/api/links', link(a, {})).expect(201)).body).toMatchObject({ domain: 'second.a.test' });
      const tpl = await as(a).post('/api/templates', { name: 'On A', defaults: { domain: 'go.a.test' } }).expect(201);
      expect((await as(a).post('/api/links', { templateId: tpl.body.id, originalUrl: 'https://example.com' }).expect(201)).body).toMatchObject({ domain: 'go.a.test' });
      // The link's own domain wins over the template's.
      expect((await as(a).post('/api/links', { templateId: tpl.body.id, originalUrl: 'https://example.com', domain: 'second.a.test' }).expect(201)).body.domain).toBe('second.a.test');
    } finally {
      await as(a).patch(`/api/domains/${ids['second.a.test']}`, { isDefault: false }).expect(200);
    }
    expect((await as(a).post('/api/links', link(a, {})).expect(201)).body).toMatchObject({ domain: 'sho.rt' });
  });

  it('bulk create places each item', async () => {
    const res = await as(a).post('/api/links/bulk-create', { links: [link(a, { domain: 'go.a.test', customCode: 'bulk1' }), link(a, { customCode: 'bulk1' })] }).expect(201);
    expect(res.body.links.map((l: { short_url: string }) => l.short_url)).toEqual(['https://go.a.test/bulk1', 'http://sho.rt/bulk1']);
  });

  it('PUT moves a link between domains (409 when its code is taken there); QR encodes its own URL', async () => {
    const l = (await as(a).post('/api/links', link(a, { customCode: 'mover1' })).expect(201)).body;
    await as(a).post('/api/links', link(a, { domain: 'second.a.test', customCode: 'mover1' })).expect(201);
    const svgBefore = (await as(a).get(`/api/links/${l.id}/qr?format=svg`).expect(200)).body.toString('utf8');

    const moved = await as(a).put(`/api/links/${l.id}`, { domain: 'go.a.test' }).expect(200);
    expect(moved.body).toMatchObject({ domain: 'go.a.test', shortUrl: 'https://go.a.test/mover1' });
    const svgAfter = (await as(a).get(`/api/links/${l.id}/qr?format=svg`).expect(200)).body.toString('utf8');
    expect(svgAfter).not.toEqual(svgBefore);

    expect((await as(a).put(`/api/links/${l.id}`, { domain: 'second.a.test' }).expect(409)).body).toEqual(conflict("Short code 'mover1' is already in use"));
    expect((await as(a).get(`/api/links/${l.id}`).expect(200)).body.domain).toBe('go.a.test');
    expect((await as(a).put(`/api/links/${l.id}`, { domain: 'go.b.test' }).expect(400)).body.validation).toEqual({ domain: 'Must be a verified domain of your organization' });
    expect((await as(a).put(`/api/links/${l.id}`, { domain: 'sho.rt' }).expect(200)).body).toMatchObject({ domain: 'sho.rt', shortUrl: 'http://sho.rt/mover1' });
  });

  it('a domain that links use cannot be deleted', async () => {
    const count = await env.prisma.link.count({ where: { domainId: ids['go.a.test'] } });
    expect(count).toBeGreaterThan(1);
    const res = await request(api.url).delete(`/api/domains/${ids['go.a.test']}`).set('Authorization', `Bearer ${a.owner.apiKey}`).expect(409);
    expect(res.body).toEqual(conflict(`Domain is in use by ${count} links`));
  });
});
