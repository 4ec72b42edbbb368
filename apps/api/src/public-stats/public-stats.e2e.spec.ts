import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { createRedirectApp } from '@dl/apps/redirect';
import { Tier } from '@dl/platform/db';
import { createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';

const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Public stats (decisions §16): `GET /api/public/stats/<domain>/<code>` on the api and
 * `/<code>+` on the redirect host, only for links with `publicStats` on; everything else
 * answers exactly like a missing link.
 */
describe('public stats: /<code>+ and GET /api/public/stats/<domain>/<code>', () => {
  let env: TestEnv;
  let api: RunningApp;
  let edge: RunningApp;
  let a: SeededOrganization;
  const links: Record<string, { id: string; code: string }> = {};
  const today = isoDay(Date.now());
  const threeDaysAgo = isoDay(Date.now() - 3 * DAY);

  const makeLink = async (name: string, data: Record<string, unknown>) => {
    const row = await env.prisma.link.create({
      data: {
        organizationId: a.organization.id,
        userId: a.owner.user.id,
        templateId: a.template.id,
        shortCode: `ps${name}${Math.random().toString(36).slice(2, 8)}`,
        originalUrl: 'https://example.com/landing',
        ...data,
      },
      select: { id: true, shortCode: true },
    });
    links[name] = { id: row.id, code: row.shortCode };
  };
  const rollup = (linkId: string, day: string, dimension: string, value: string, clicks: number) => ({
    organizationId: a.organization.id,
    linkId,
    day: new Date(`${day}T00:00:00Z`),
    dimension,
    value,
    clicks,
  });

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'true' });
    a = await seedOrganization(env, { tier: Tier.FREE });
    const domain = await env.prisma.domain.create({
      data: { organizationId: a.organization.id, domain: 'go.stats.test', status: 'verified', verificationToken: '0'.repeat(32), verifiedAt: new Date() },
    });
    await makeLink('pub', { publicStats: true, title: '<b>Launch</b> & co', clickCount: 42 });
    await makeLink('priv', { publicStats: false, clickCount: 7 });
    await makeLink('off', { publicStats: true, isActive: false });
    await makeLink('branded', { publicStats: true, domainId: domain.id, domainName: 'go.stats.test', title: 'Spring' });
    const p = links.pub.id;
    await env.prisma.clickRollup.createMany({
      data: [
        rollup(p, today, 'total', '', 30),
        rollup(p, threeDaysAgo, 'total', '', 12),
        ...[['US', 10], ['GB', 8], ['DE', 6], ['FR', 4], ['JP', 2], ['BR', 1], ['', 9]].map(([c, n]) => rollup(p, today, 'country', c as string, n as number)),
        rollup(p, threeDaysAgo, 'country', 'US', 5),
        rollup(p, today, 'device', 'mobile', 20),
        rollup(p, threeDaysAgo, 'device', 'desktop', 22),
        rollup(p, today, 'source', 'secret-referrer.example', 30),
        rollup(p, today, 'city', 'US|California|Cupertino', 3),
        // Outside the 30-day window: not in the chart or the breakdowns.
        rollup(p, isoDay(Date.now() - 40 * DAY), 'total', '', 99),
        rollup(p, isoDay(Date.now() - 40 * DAY), 'country', 'CA', 99),
        rollup(links.priv.id, today, 'total', '', 7),
      ],
    });
    await env.prisma.click.create({
      data: {
        id: '00000000-0000-4000-8000-00000000c11c',
        organizationId: a.organization.id,
        linkId: p,
        clickedAt: new Date(),
        ipAddress: '203.0.113.77',
        referrer: 'https://secret-referrer.example/private-page',
        visitorHash: 'v',
      },
    });
    [api, edge] = await Promise.all([startApp(createApiApp, env.config), startApp(createRedirectApp, env.config)]);
  });
  afterAll(async () => {
    await Promise.all([api?.close(), edge?.close()]);
    await env?.teardown();
  });

  const expectedDays = () => Array.from({ length: 30 }, (_, i) => isoDay(Date.now() - (29 - i) * DAY));

  it('the JSON of a public link: no credentials, cached 60 s, 30 days, countries and devices, nothing personal', async () => {
    const res = await request(api.url).get(`/api/public/stats/sho.rt/${links.pub.code}`).expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expect(res.body).toEqual({
      shortCode: links.pub.code,
      title: '<b>Launch</b> & co',
      totalClicks: 42,
      clicksByDate: expectedDays().map((date) => ({ date, clicks: date === today ? 30 : date === threeDaysAgo ? 12 : 0 })),
      clicksByCountry: [
        { countryCode: 'US', country: 'United States', clicks: 15 },
        { countryCode: 'GB', country: 'United Kingdom', clicks: 8 },
        { countryCode: 'DE', country: 'Germany', clicks: 6 },
        { countryCode: 'FR', country: 'France', clicks: 4 },
        { countryCode: 'JP', country: 'Japan', clicks: 2 },
        { countryCode: 'BR', country: 'Brazil', clicks: 1 },
      ],
      clicksByDevice: [
        { device: 'desktop', clicks: 22 },
        { device: 'mobile', clicks: 20 },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/203\.0\.113|secret-referrer|Cupertino|organization|userId|originalUrl|example\.com/);
    // Branded domain: by its name, any case; the service host answers its own links only.
    const branded = await request(api.url).get(`/api/public/stats/GO.STATS.TEST/${links.branded.code}`).expect(200);
    expect(branded.body).toMatchObject({ shortCode: links.branded.code, title: 'Spring', totalClicks: 0, clicksByCountry: [], clicksByDevice: [] });
    await request(api.url).get(`/api/public/stats/sho.rt/${links.branded.code}`).expect(404);
    await request(api.url).get(`/api/public/stats/go.stats.test/${links.pub.code}`).expect(404);
  });

  it('private, inactive, unknown, bad domain: 404 Link not found, the same answer as a missing link', async () => {
    const missing = { error: 'Not Found', message: 'Link not found', statusCode: 404 };
    for (const path of [
      `sho.rt/${links.priv.code}`,
      `sho.rt/${links.off.code}`,
      'sho.rt/nosuchcode',
      `other.test/${links.pub.code}`,
      `not_a_host/${links.pub.code}`,
      `sho.rt/${'x'.repeat(90)}`,
    ]) {
      const res = await request(api.url).get(`/api/public/stats/${path}`);
      expect([path, res.status, res.body]).toEqual([path, 404, missing]);
    }
  });

  it('a link made public or private shows the change within 60 s (answers are cached per instance)', async () => {
    await request(api.url).get(`/api/public/stats/sho.rt/${links.pub.code}`).expect(200);
    await env.prisma.link.update({ where: { id: links.pub.id }, data: { publicStats: false } });
    // Still the cached answer: the 60 s the spec allows.
    await request(api.url).get(`/api/public/stats/sho.rt/${links.pub.code}`).expect(200);
    await env.prisma.link.update({ where: { id: links.pub.id }, data: { publicStats: true } });
  });

  it('/<code>+ on the link host: an HTML page with total, 30-day SVG chart, top 5 countries and devices, escaped', async () => {
    const res = await request(edge.url).get(`/${links.pub.code}+`).set('Host', 'sho.rt').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const html = res.text;
    expect(html).toContain('&lt;b&gt;Launch&lt;/b&gt; &amp; co');
    expect(html).not.toContain('<b>Launch');
    expect(html).toContain('<p class="total">42</p>');
    expect(html).toMatch(/<svg [^>]*role="img"/);
    expect(html.match(/<rect /g)).toHaveLength(30);
    for (const c of ['United States', 'United Kingdom', 'Germany', 'France', 'Japan', 'desktop', 'mobile']) expect(html).toContain(c);
    expect(html).not.toContain('Brazil');
    expect(html).not.toMatch(/<script|203\.0\.113|secret-referrer|Cupertino|example\.com\/landing|og:/);
    // The branded link on its own host; HEAD answers the same status.
    const branded = await request(edge.url).get(`/${links.branded.code}+`).set('Host', 'go.stats.test').expect(200);
    expect(branded.text).toContain('https://go.stats.test/' + links.branded.code);
    await request(edge.url).head(`/${links.pub.code}+`).set('Host', 'sho.rt').expect(200);
  });

  it('/<code>+ of a private, inactive, unknown or other-host link answers exactly what a missing code answers', async () => {
    const missing = await request(edge.url).get('/nosuchcode').set('Host', 'sho.rt').redirects(0);
    expect(missing.status).toBe(404);
    for (const [path, host] of [
      [`/${links.priv.code}+`, 'sho.rt'],
      [`/${links.off.code}+`, 'sho.rt'],
      ['/nosuchcode+', 'sho.rt'],
      [`/${links.pub.code}+`, 'go.stats.test'],
      [`/${links.branded.code}+`, 'sho.rt'],
    ]) {
      const res = await request(edge.url).get(path).set('Host', host).redirects(0);
      expect([path, host, res.status, res.headers['content-type'], res.text]).toEqual([path, host, 404, missing.headers['content-type'], missing.text]);
    }
    // The link itself still redirects; `+` alone is no code.
    await request(edge.url).get(`/${links.priv.code}`).set('Host', 'sho.rt').redirects(0).expect(302);
    await request(edge.url).get('/+').set('Host', 'sho.rt').redirects(0).expect(404);
  });
});
