import request from 'supertest';
import { bad, LinksWorld, linksWorld } from '../links/test/links-setup';

/** POST /v1/shortLinks in Firebase Dynamic Links' shapes (decisions §26), over HTTP with dl_ keys. */
describe('FDL compatibility: POST /v1/shortLinks', () => {
  let w: LinksWorld;
  const HOST = 'go.fdl-api.test';
  const post = (body: unknown, key = w.keyA) => request(w.api.url).post('/v1/shortLinks').set('Authorization', `Bearer ${key}`).send(body as object);
  const linkAt = (url: string) => {
    const u = new URL(url);
    return w.env.prisma.link.findFirstOrThrow({ where: { domainName: u.hostname, shortCode: u.pathname.slice(1) } });
  };

  beforeAll(async () => {
    w = await linksWorld();
    await w.env.prisma.domain.create({
      data: { organizationId: w.a.organization.id, domain: HOST, status: 'verified', verificationToken: '0'.repeat(32), verifiedAt: new Date() },
    });
  });
  afterAll(() => w?.close());

  it('dynamicLinkInfo with suffix SHORT → {shortLink, previewLink, warning} on the domain of domainUriPrefix; the link has each platform’s destination', async () => {
    const res = await post({
      dynamicLinkInfo: {
        domainUriPrefix: `https://${HOST}`,
        link: 'https://example.com/fdl/welcome',
        androidInfo: { androidPackageName: 'com.example.app' },
        iosInfo: { iosBundleId: 'com.example.ios', iosFallbackLink: 'https://example.com/fdl/ios' },
        desktopInfo: { desktopFallbackLink: 'https://example.com/fdl/desktop' },
        socialMetaTagInfo: { socialTitle: 'Welcome', socialDescription: 'Open the app', socialImageLink: 'https://example.com/fdl/card.png' },
        analyticsInfo: { googlePlayAnalytics: { utmSource: 'app', utmCampaign: 'invite' } },
      },
      suffix: { option: 'SHORT' },
    }).expect(200);
    expect(res.body).toEqual({
      shortLink: expect.stringMatching(new RegExp(`^https://${HOST.replace(/\./g, '\\.')}/[0-9A-Za-z]{7}$`)),
      previewLink: `${res.body.shortLink}/preview`,
      warning: [{ warningCode: 'NOT_IMPLEMENTED', warningMessage: "Param 'ibi' is accepted but not applied to the short link" }],
    });
    expect(await linkAt(res.body.shortLink)).toMatchObject({
      organizationId: w.a.organization.id,
      originalUrl: 'https://example.com/fdl/welcome',
      androidUrl: 'https://play.google.com/store/apps/details?id=com.example.app',
      iosUrl: 'https://example.com/fdl/ios',
      webFallbackUrl: 'https://example.com/fdl/desktop',
      ogTitle: 'Welcome',
      ogDescription: 'Open the app',
      ogImageUrl: 'https://example.com/fdl/card.png',
      utmParameters: { source: 'app', campaign: 'invite' },
      templateId: w.a.template.id,
    });
  });

  it('longDynamicLink, UNGUESSABLE by default: a 17-character suffix', async () => {
    const long = `https://${HOST}/?${new URLSearchParams({ link: 'https://example.com/fdl/long', isi: '1234567890', ofl: 'https://example.com/fdl/o' })}`;
    const res = await post({ longDynamicLink: long }).expect(200);
    expect(res.body.shortLink).toMatch(new RegExp(`^https://${HOST.replace(/\./g, '\\.')}/[0-9A-Za-z]{17}$`));
    expect(res.body.warning).toEqual([]);
    expect(await linkAt(res.body.shortLink)).toMatchObject({ originalUrl: 'https://example.com/fdl/long', iosUrl: 'https://apps.apple.com/app/id1234567890', webFallbackUrl: 'https://example.com/fdl/o' });
  });

  it("dynamicLinkDomain, FDL's deprecated name for the domain, places the link there when domainUriPrefix is absent", async () => {
    const res = await post({ dynamicLinkInfo: { dynamicLinkDomain: HOST, link: 'https://example.com/fdl/old-client' } }).expect(200);
    expect(res.body.shortLink).toMatch(new RegExp(`^https://${HOST.replace(/\./g, '\\.')}/[0-9A-Za-z]{17}$`));
    expect(await linkAt(res.body.shortLink)).toMatchObject({ organizationId: w.a.organization.id, originalUrl: 'https://example.com/fdl/old-client' });
    expect((await post({ dynamicLinkInfo: { dynamicLinkDomain: 'bad domain^', link: 'https://example.com/x' } }).expect(400)).body).toEqual(
      bad('Validation error', { 'dynamicLinkInfo.dynamicLinkDomain': 'Must be https://<a verified domain of your organization>' }),
    );
  });

  it('a link that is not http(s) → 400 Validation error naming the field; nothing made', async () => {
    const before = await w.env.prisma.link.count({ where: { domainName: HOST } });
    for (const link of ['javascript:alert(1)', 'ftp://example.com/x', 'intent://scan#Intent;end']) {
      expect((await post({ dynamicLinkInfo: { domainUriPrefix: `https://${HOST}`, link } }).expect(400)).body).toEqual(
        bad('Validation error', { 'dynamicLinkInfo.link': 'Must be an http(s) URL' }),
      );
      expect((await post({ longDynamicLink: `https://${HOST}/?link=${encodeURIComponent(link)}` }).expect(400)).body).toEqual(
        bad('Validation error', { longDynamicLink: 'Must be an http(s) URL' }),
      );
    }
    expect((await post({ dynamicLinkInfo: { link: 'https://e.example', androidInfo: { androidFallbackLink: 'market://x' } } }).expect(400)).body).toEqual(
      bad('Validation error', { 'dynamicLinkInfo.androidInfo.androidFallbackLink': 'Must be an http(s) URL' }),
    );
    expect(await w.env.prisma.link.count({ where: { domainName: HOST } })).toBe(before);
  });

  it('bad shapes: no link info, a bad suffix option, another organization’s or unknown domain → 400', async () => {
    expect((await post({}).expect(400)).body).toEqual(bad('Validation error', { dynamicLinkInfo: 'Give longDynamicLink or dynamicLinkInfo' }));
    expect((await post({ longDynamicLink: `https://${HOST}/?link=https://e.example`, suffix: { option: 'LONG' } }).expect(400)).body).toEqual(
      bad('Validation error', { 'suffix.option': 'Must be SHORT or UNGUESSABLE' }),
    );
    expect((await post({ longDynamicLink: `https://${HOST}/?link=https://e.example` }, w.keyB).expect(400)).body).toEqual(
      bad('Validation error', { domain: 'Must be a verified domain of your organization' }),
    );
  });

  it('needs a key with links:write: none → 401, a links:read key → 403', async () => {
    const body = { longDynamicLink: `https://${HOST}/?link=https://e.example` };
    expect((await request(w.api.url).post('/v1/shortLinks').send(body)).status).toBe(401);
    // Organization B (A has used its plan's keys): the scope is checked before anything else.
    const readOnly = await request(w.api.url).post('/api/keys').set('Authorization', `Bearer ${w.b.owner.jwt}`).send({ name: 'fdl read', scopes: ['links:read'] }).expect(201);
    const refused = await post(body, readOnly.body.key);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'Forbidden' });
  });

  describe("the key in FDL's `?key=` query parameter", () => {
    const body = () => ({ longDynamicLink: `https://${HOST}/?link=https://example.com/fdl/query-key` });
    const postWithQuery = (key: string) => request(w.api.url).post(`/v1/shortLinks?key=${encodeURIComponent(key)}`).send(body());
    const unauthorized = (message: string) => ({ error: 'Unauthorized', message, statusCode: 401 });

    it('authenticates like the Bearer header: the same organization and the same scope check', async () => {
      const viaQuery = await postWithQuery(w.keyA).expect(200);
      expect((await linkAt(viaQuery.body.shortLink)).organizationId).toBe(w.a.organization.id);
      const readOnly = await request(w.api.url).post('/api/keys').set('Authorization', `Bearer ${w.b.owner.jwt}`).send({ name: 'fdl query read', scopes: ['links:read'] }).expect(201);
      expect((await postWithQuery(readOnly.body.key).expect(403)).body).toEqual({ error: 'Forbidden', message: 'API key lacks scope links:write', statusCode: 403 });
    });

    it('a bad key → 401 in the contract shape; nothing made', async () => {
      const before = await w.env.prisma.link.count({ where: { domainName: HOST } });
      expect((await postWithQuery(`dl_${'0'.repeat(64)}`).expect(401)).body).toEqual(unauthorized('Invalid API key'));
      // A Firebase key left in place, a malformed or empty one: no credential at all.
      for (const key of ['AIzaSyA-not-ours', 'dl_xyz', '']) {
        expect((await postWithQuery(key).expect(401)).body).toEqual(unauthorized('Missing or invalid API key'));
      }
      expect(await w.env.prisma.link.count({ where: { domainName: HOST } })).toBe(before);
    });

    it('is a key, never a session: a JWT in ?key= is refused', async () => {
      expect((await postWithQuery(w.a.owner.jwt).expect(401)).body).toEqual(unauthorized('Missing or invalid API key'));
    });

    it('counts against the same rate limit as the header', async () => {
      const limited = await linksWorld({ rateLimit: true });
      try {
        const info = { dynamicLinkInfo: { link: 'https://example.com/fdl/limited' }, suffix: { option: 'SHORT' } };
        const viaQuery = () => request(limited.api.url).post(`/v1/shortLinks?key=${limited.keyA}`).send(info).expect(200);
        const viaHeader = () => request(limited.api.url).post('/v1/shortLinks').set('Authorization', `Bearer ${limited.keyA}`).send(info).expect(200);
        const remaining = [];
        for (const send of [viaQuery, viaHeader, viaQuery]) remaining.push(Number((await send()).headers['x-ratelimit-remaining']));
        expect(remaining).toEqual([remaining[0], remaining[0] - 1, remaining[0] - 2]);
      } finally {
        await limited.close();
      }
    });

    it('only on this route: other routes ignore ?key=', async () => {
      const res = await request(w.api.url).get(`/api/links?key=${w.keyA}`).expect(401);
      expect(res.body).toEqual(unauthorized('Missing or invalid API key'));
    });
  });
});
