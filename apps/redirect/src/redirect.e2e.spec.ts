import request from 'supertest';
import { clickBatchJobId, clickIdTime, PACKED_FIELDS, PackedClickBatch } from '@dl/platform/click-codec';
import { clicksQueue, createTestEnv, eventuallyMatches, publishInvalidation, queuedClickJobs, queuedClicks, seedLink, seedRedirectOrg, startApp, tempDirOf, UA, useSuite } from '@dl/testing';
import { createRedirectApp } from './app';

const ROUTED = {
  originalUrl: 'https://example.com/original',
  iosUrl: 'https://apps.apple.com/app/id123',
  androidUrl: 'https://play.google.com/store/apps/details?id=com.example',
  webFallbackUrl: 'https://example.com/web',
};

describe('redirect edge: GET/HEAD /{shortCode}', () => {
  const t = useSuite(async (own) => {
    const env = own(
      await createTestEnv({
        TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip',
        CLICK_FALLBACK_DIR: tempDirOf(own, 'dl-redirect-'),
        IOS_TEAM_ID: 'ABCDE12345',
        IOS_BUNDLE_ID: 'com.example.app',
        ANDROID_PACKAGE_NAME: 'com.example.app',
        ANDROID_SHA256_FINGERPRINTS: 'AA:BB:CC, dd:ee:ff',
      }),
    );
    const server = own(await startApp(createRedirectApp, env.config));
    return { env, server, org: await seedRedirectOrg(env.prisma), queue: own(clicksQueue(env.config)) };
  });

  const get = (path: string, ua: string = UA.windowsChrome) =>
    request(t.server.url).get(path).set('User-Agent', ua).redirects(0);

  describe('platform routing', () => {
    let code: string;
    beforeAll(async () => {
      code = (await seedLink(t.env.prisma, t.org, ROUTED)).shortCode;
    });

    // One platform over HTTP; every platform, the fallbacks and bots: libs/redirect/src/visit-answers.spec.ts.
    it('iPhone Safari → its destination, 302 no-store', async () => {
      const res = await get(`/${code}`, UA.iphone).expect(302);
      expect(res.headers.location).toBe(ROUTED.iosUrl);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toBe('');
    });

    it('the same answer whether the code comes plain, percent-encoded or with a trailing slash, with request ids and route metrics', async () => {
      const encoded = '/' + [...code].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
      const raw = await get(`/${code}?a=1`, UA.android).set('x-request-id', 'trace-123').expect(302);
      const decoded = await get(`${encoded}?a=1`, UA.android).set('x-request-id', 'trace-456').expect(302);
      const slash = await get(`/${code}/?a=1`, UA.android).expect(302);
      expect(raw.headers.location).toBe(`${ROUTED.androidUrl}&a=1`);
      expect(decoded.headers.location).toBe(raw.headers.location);
      expect(slash.headers.location).toBe(raw.headers.location);
      expect(raw.headers['x-request-id']).toBe('trace-123');
      expect(decoded.headers['x-request-id']).toBe('trace-456');
      expect(slash.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(raw.headers['content-type']).toBeUndefined();
      const metrics = await request(t.server.url).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/http_requests_total\{method="GET",route="\/:shortCode",status="302"\} \d+/);
    });
  });

  // The country of the trusted header's IP by GeoLite2 over HTTP; languages, devices and the
  // fallbacks of the targeting gate: libs/redirect/src/visit-answers.spec.ts.
  describe('targeting rules (send outsiders to webFallbackUrl, skipping platform routing)', () => {
    it('countries: the client IP of the trusted header decides', async () => {
      const link = await seedLink(t.env.prisma, t.org, { ...ROUTED, targetingRules: { countries: ['US'] } });
      const inside = await get(`/${link.shortCode}`, UA.iphone).set('cf-connecting-ip', '8.8.8.8').expect(302);
      expect(inside.headers.location).toBe(ROUTED.iosUrl);
      const outside = await get(`/${link.shortCode}`, UA.iphone).set('cf-connecting-ip', '81.2.69.160').expect(302);
      expect(outside.headers.location).toBe(ROUTED.webFallbackUrl);
      // Unknown country (loopback) does not match a country rule.
      const unknown = await get(`/${link.shortCode}`, UA.iphone).expect(302);
      expect(unknown.headers.location).toBe(ROUTED.webFallbackUrl);
    });
  });

  describe('query: UTM merge and passthrough', () => {
    it("adds the link's UTM unless present and passes the visitor's query through", async () => {
      const link = await seedLink(t.env.prisma, t.org, {
        originalUrl: 'https://example.com/p?utm_medium=stored&x=1#top',
        utmParameters: { source: 'twitter', medium: 'social', campaign: 'launch' },
      });
      const res = await get(`/${link.shortCode}?utm_source=newsletter&ref=abc&x=2`).expect(302);
      const url = new URL(res.headers.location);
      expect(url.origin + url.pathname).toBe('https://example.com/p');
      expect(url.hash).toBe('#top');
      expect(url.searchParams.getAll('utm_source')).toEqual(['newsletter']);
      expect(url.searchParams.getAll('utm_medium')).toEqual(['stored']);
      expect(url.searchParams.getAll('utm_campaign')).toEqual(['launch']);
      expect(url.searchParams.get('ref')).toBe('abc');
      expect(url.searchParams.getAll('x')).toEqual(['1']);
    });

    it('adds dl_click=<clickId> to web destinations of an organization with a pixel site or on a paid plan', async () => {
      const pixelOrg = await seedRedirectOrg(t.env.prisma);
      await t.env.prisma.pixelSite.create({
        data: { organizationId: pixelOrg.organizationId, name: 'Shop', domain: 'example.com', siteKey: `dlp_${pixelOrg.organizationId.replace(/-/g, '')}` },
      });
      const link = await seedLink(t.env.prisma, pixelOrg, ROUTED);
      const web = await get(`/${link.shortCode}?dl_click=spoofed`).expect(302);
      const clickId = new URL(web.headers.location).searchParams.getAll('dl_click');
      expect(clickId).toHaveLength(1);
      expect(clickId[0]).toMatch(/^[0-9a-f-]{36}$/);
      const jobs = await eventuallyMatches(() => queuedClicks(t.queue), (js) => js.some((j) => j.id === clickId[0]));
      expect(jobs.find((j) => j.id === clickId[0])?.linkId).toBe(link.id);
      // App-store destinations carry no dl_click.
      const ios = await get(`/${link.shortCode}`, UA.iphone).expect(302);
      expect(ios.headers.location).toBe(ROUTED.iosUrl);
      // A FREE organization without a pixel site: no dl_click.
      const plain = await seedLink(t.env.prisma, t.org, ROUTED);
      expect((await get(`/${plain.shortCode}`)).headers.location).toBe(ROUTED.webFallbackUrl);
      // A paid plan without a pixel site: dl_click, for the tracking API's leads (decisions §23).
      const paidOrg = await seedRedirectOrg(t.env.prisma);
      await t.env.prisma.organization.update({ where: { id: paidOrg.organizationId }, data: { tier: 'PRO' } });
      const paid = await seedLink(t.env.prisma, paidOrg, ROUTED);
      const paidClick = new URL((await get(`/${paid.shortCode}`).expect(302)).headers.location).searchParams.getAll('dl_click');
      expect(paidClick).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    });
  });

  describe('404 / 410 pages (no click recorded)', () => {
    it.each([
      ['unknown', async () => 'Zz9unknown'],
      ['inactive', async () => (await seedLink(t.env.prisma, t.org, { isActive: false })).shortCode],
    ])('%s code → 404 Link not found page', async (_name, codeOf) => {
      const code = await codeOf();
      const res = await get(`/${code}`).expect(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<title>Link not found</title>');
      expect(res.text).toContain('<h1>Link not found</h1>');
    });

    it('deleted link → 404', async () => {
      const link = await seedLink(t.env.prisma, t.org);
      await get(`/${link.shortCode}`).expect(302);
      await t.env.prisma.link.delete({ where: { id: link.id } });
      await publishInvalidation(t.env.config, link.shortCode);
      const res = await eventuallyMatches(() => get(`/${link.shortCode}`), (r) => r.status === 404, 1000);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Link not found');
    });

    it('expired link → 410 This link has expired, and no click', async () => {
      const link = await seedLink(t.env.prisma, t.org, { expiresAt: new Date(Date.now() - 1000) });
      const res = await get(`/${link.shortCode}`).expect(410);
      expect(res.text).toContain('<h1>This link has expired</h1>');
      expect(res.headers['cache-control']).toBe('no-store');
      const jobs = await queuedClicks(t.queue);
      expect(jobs.some((j) => j.linkId === link.id)).toBe(false);
    });

    it('HEAD answers like GET without a body and records no click', async () => {
      const link = await seedLink(t.env.prisma, t.org, ROUTED);
      const res = await request(t.server.url).head(`/${link.shortCode}`).set('User-Agent', UA.iphone).redirects(0);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(ROUTED.iosUrl);
      expect(res.headers['cache-control']).toBe('no-store');
      const missing = await request(t.server.url).head('/Zz9unknown');
      expect(missing.status).toBe(404);
      expect(missing.text).toBeUndefined();
      await new Promise((r) => setTimeout(r, 100));
      expect((await queuedClicks(t.queue)).some((j) => j.linkId === link.id)).toBe(false);
    });

    // One path the edge reads as a code and one it leaves to the router; every hostile path:
    // apps/redirect/src/visit.route.spec.ts (the service host's root: branded-hosts.e2e.spec.ts).
    it.each([
      ['percent-encoded bytes', '/%E2%82%AC%00abc'],
      ['a nested path', '/abc/def'],
    ])('%s → the 404 page, never a 500', async (_name, path) => {
      const res = await request(t.server.url).get(path).redirects(0);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Link not found');
    });

    it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])('%s /{code} → the 404 page', async (method) => {
      const link = await seedLink(t.env.prisma, t.org);
      const res = await request(t.server.url)[method.toLowerCase() as 'post'](`/${link.shortCode}`).redirects(0);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Link not found');
    });

    it('/health and /metrics keep winning over /{shortCode}', async () => {
      await request(t.server.url).get('/health').expect(200);
      const metrics = await request(t.server.url).get('/metrics').expect(200);
      expect(metrics.text).toContain('clicks_captured_total');
    });
  });

  // One crawler over HTTP; the four crawlers and a person on the same link: libs/redirect/src/visit-answers.spec.ts.
  describe('crawler previews', () => {
    it('Googlebot gets 200 HTML with escaped og/twitter tags and a meta refresh', async () => {
      const ua = UA.googlebot;
      const link = await seedLink(t.env.prisma, t.org, {
        ...ROUTED,
        ogTitle: 'Sale "><script>alert(1)</script>',
        ogDescription: "Tom & Jerry's <b>deal</b>",
        ogImageUrl: 'https://cdn.example.com/i.png?a=1&b="2"',
      });
      const res = await get(`/${link.shortCode}`, ua).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).not.toContain('<script>');
      expect(res.text).toContain(
        '<meta property="og:title" content="Sale &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">',
      );
      expect(res.text).toContain(
        '<meta property="og:description" content="Tom &amp; Jerry&#39;s &lt;b&gt;deal&lt;/b&gt;">',
      );
      expect(res.text).toContain(
        '<meta property="og:image" content="https://cdn.example.com/i.png?a=1&amp;b=&quot;2&quot;">',
      );
      expect(res.text).toContain('<meta name="twitter:card" content="summary_large_image">');
      expect(res.text).toContain('<meta name="twitter:title" content="Sale &quot;&gt;&lt;script&gt;');
      expect(res.text).toContain(`<meta http-equiv="refresh" content="0; url=${ROUTED.webFallbackUrl}">`);
    });
  });

  describe('click capture', () => {
    it('queues the raw facts under the edge-made id (bots too)', async () => {
      const link = await seedLink(t.env.prisma, t.org, ROUTED);
      await get(`/${link.shortCode}?utm_source=mail&utm_campaign=spring&other=1`, UA.iphone)
        .set('cf-connecting-ip', '81.2.69.160')
        .set('X-Forwarded-For', '9.9.9.9')
        .set('Referer', 'https://news.example.org/a')
        .set('Accept-Language', 'en-GB,en;q=0.9')
        .expect(302);
      await get(`/${link.shortCode}`, UA.googlebot).expect(302);
      const jobs = await eventuallyMatches(
        () => queuedClicks(t.queue),
        (js) => js.filter((j) => j.linkId === link.id).length === 2,
      );
      const mine = jobs.filter((j) => j.linkId === link.id);
      const person = mine.find((j) => j.userAgent === UA.iphone)!;
      expect(person).toEqual({
        // A UUIDv7 made from the click time (decisions §18: the partition key is in the id).
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        linkId: link.id,
        organizationId: t.org.organizationId,
        clickedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        ip: '81.2.69.160',
        userAgent: UA.iphone,
        referrer: 'https://news.example.org/a',
        acceptLanguage: 'en-GB,en;q=0.9',
        query: { utm_source: 'mail', utm_campaign: 'spring' },
      });
      expect(Math.abs(Date.parse(person.clickedAt) - Date.now())).toBeLessThan(10_000);
      expect(clickIdTime(person.id)).toBe(Date.parse(person.clickedAt));
      // A fact the visit did not send, and a query without utm_*, are left out of the record (the worker reads them as null / {}).
      const bot = mine.find((j) => j.userAgent === UA.googlebot)!;
      expect(Object.keys(bot).sort()).toEqual(['clickedAt', 'id', 'ip', 'linkId', 'organizationId', 'userAgent']);
      // Carried by a `click.batch` job whose id is derived from the clicks it carries.
      const batch = (await queuedClickJobs(t.queue)).find((j) => j.clicks.some((c) => c.id === person.id))!;
      expect(batch.name).toBe('click.batch');
      expect(batch.id).toBe(clickBatchJobId(batch.clicks));
      // Sent packed: each distinct string of the flush once, a click as its id and indexes.
      const data = (await t.queue.getJob(batch.id))?.data as PackedClickBatch;
      expect(data).toEqual({ v: 2, s: expect.any(Array), i: batch.clicks.map((c) => c.id), r: expect.any(Array), q: expect.any(Object) });
      expect(data.s.filter((x) => x === link.id)).toHaveLength(1);
      expect(data.r).toHaveLength(batch.clicks.length * PACKED_FIELDS);
    });

    it('counts captured clicks in the metrics', async () => {
      const metrics = await request(t.server.url).get('/metrics').expect(200);
      const captured = Number(/clicks_captured_total (\d+)/.exec(metrics.text)?.[1]);
      expect(captured).toBeGreaterThan(0);
    });
  });
});
