import { buildAnswer, EdgePage } from './answer';
import { decide } from './decision';
import { EdgeDomain } from './domain-table';
import { snapshotOf } from '@dl/testing';
import { RedirectLinkSnapshot } from './redirect-link';
import { EdgeRequest, Visit, VisitContext } from './visit';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const link = (over: Partial<RedirectLinkSnapshot> = {}): RedirectLinkSnapshot => snapshotOf({ iosUrl: 'https://apps.apple.com/app/id1', ...over });

const branded = (over: Partial<EdgeDomain> = {}): EdgeDomain => ({
  id: 'd1',
  organizationId: 'o1',
  domain: 'go.example.com',
  status: 'verified',
  rootRedirectUrl: null,
  notFoundUrl: null,
  inUse: true,
  files: { apple: null, android: null },
  ...over,
});

/** Countries by IP, as the GeoIP database would answer for these test addresses. */
const context: VisitContext = { countries: { country: (ip) => (ip === '203.0.113.7' ? 'FR' : null) }, trustedIpHeader: 'cf-connecting-ip' };

const request = (over: Partial<EdgeRequest> = {}): EdgeRequest => ({
  method: 'GET',
  url: '/abc1234',
  headers: { host: 'localhost', 'user-agent': IPHONE },
  socket: { remoteAddress: '127.0.0.1' },
  ...over,
});

describe(Visit.name, () => {
  it('reads the request once: method, query, platform, client IP through the trusted header, its country and languages', () => {
    const v = new Visit(
      request({ url: '/abc1234?utm_source=news&x=1', headers: { host: 'localhost', 'user-agent': IPHONE, 'cf-connecting-ip': '203.0.113.7', 'accept-language': 'fr-CA,en;q=0.5' } }),
      'abc1234',
      context,
      42,
    );
    expect({ now: v.now, method: v.method, code: v.code, query: v.query, platform: v.platform, bot: v.bot }).toEqual({
      now: 42,
      method: 'GET',
      code: 'abc1234',
      query: 'utm_source=news&x=1',
      platform: 'ios',
      bot: false,
    });
    expect([v.ip(), v.country(), v.languages(), v.os(), v.browser()]).toEqual(['203.0.113.7', 'FR', ['fr', 'en'], 'iOS', 'Safari']);
    expect(v.queryParams().get('x')).toBe('1');
    expect(v.visitorKey()).toBe(`203.0.113.7\n${IPHONE}`);
  });

  it('cleans what a visitor sends: NUL and lone surrogates stripped, values cut to 2,048 characters, empty ones null', () => {
    const v = new Visit(request({ headers: { 'user-agent': 'a\u0000b\ud800', referer: 'r'.repeat(5000), 'accept-language': '' } }), 'abc1234', context);
    expect(v.ua).toBe('ab');
    expect(v.header('referer')).toHaveLength(2048);
    expect(v.header('accept-language')).toBeNull();
    expect(v.header('cookie')).toBeNull();
    expect(v.query).toBe('');
  });

  it('names dl_click only when the organization has a pixel site, and a branded host’s notFoundUrl', () => {
    const v = new Visit(request(), 'abc1234', context);
    v.clickId = 'c1';
    expect(v.pixelClickId).toBeNull();
    v.pixel = true;
    expect(v.pixelClickId).toBe('c1');
    expect(v.notFoundUrl).toBeNull();
    v.place = branded({ notFoundUrl: 'https://example.com/404' });
    expect(v.notFoundUrl).toBe('https://example.com/404');
  });

  it('records its click with the facts it has, leaving out empty ones and non-UTM query keys', () => {
    const v = new Visit(
      request({ url: '/abc1234?utm_source=news&utm_term=%00&ref=x', headers: { 'user-agent': IPHONE, referer: 'https://news.example/a' } }),
      'abc1234',
      context,
      Date.UTC(2026, 0, 2, 3, 4, 5, 6),
    );
    v.link = link();
    v.clickId = '0190-click';
    expect(v.click(1, null)).toEqual({
      id: '0190-click',
      linkId: 'l1',
      organizationId: 'o1',
      clickedAt: '2026-01-02T03:04:05.006Z',
      ip: '127.0.0.1',
      userAgent: IPHONE,
      referrer: 'https://news.example/a',
      query: { utm_source: 'news' },
      variantIndex: 1,
    });
    const bare = new Visit(request({ headers: {}, socket: {} }), 'abc1234', context, 0);
    bare.link = link();
    bare.clickId = 'c2';
    expect(bare.click(null, 0)).toEqual({ id: 'c2', linkId: 'l1', organizationId: 'o1', clickedAt: '1970-01-01T00:00:00.000Z', ruleIndex: 0 });
  });

  it('is what the decision reads: an unknown code goes to the host’s notFoundUrl, else the 404 page', () => {
    const v = new Visit(request(), 'nope', context);
    expect(decide(v)).toEqual({ kind: 'not-found' });
    v.place = branded({ notFoundUrl: 'https://example.com/404' });
    expect(decide(v)).toEqual({ kind: 'not-found-redirect', location: 'https://example.com/404' });
    v.link = link({ isActive: false });
    expect(buildAnswer(decide(v))).toEqual({ status: 302, headers: { location: 'https://example.com/404', 'cache-control': 'no-store' }, body: '' });
    v.link = link();
    v.unlocked = true;
    v.clickId = 'c1';
    v.pixel = true;
    expect(decide(v)).toEqual({ kind: 'redirect', location: 'https://apps.apple.com/app/id1' });
  });
});

describe(buildAnswer.name, () => {
  it('every HTML page has a CSP without script and frame-ancestors none, nosniff and the referrer policy (decisions §22)', () => {
    const l = link({ safetyStatus: 'suspicious', safetyReason: 'mixed scripts', title: 'T', ogTitle: 'OG' });
    const stats = { shortCode: 'abc1234', title: 'T', totalClicks: 1, clicksByDate: [], clicksByCountry: [], clicksByDevice: [] };
    const pages: EdgePage[] = [
      { kind: 'not-found' },
      { kind: 'expired' },
      { kind: 'unavailable' },
      { kind: 'bad-link' },
      { kind: 'password', link: l },
      { kind: 'password', link: l, wrong: true },
      { kind: 'too-many-tries' },
      { kind: 'warning', link: l, destination: 'https://example.com/o', query: 'a=1' },
      { kind: 'disabled', reason: 'malware' },
      { kind: 'preview', link: l, location: 'https://example.com/o' },
      { kind: 'link-preview', link: l, shortUrl: 'https://s.test/abc1234' },
      { kind: 'stats', stats, shortUrl: 'https://s.test/abc1234' },
      { kind: 'report', shortCode: 'abc1234', error: null },
      { kind: 'report', shortCode: 'abc1234', error: 'Choose what is wrong with this link.' },
      { kind: 'reported' },
      { kind: 'too-many-reports', retryAfter: 60 },
      { kind: 'cloak', link: l, location: 'https://example.com/o' },
    ];
    const page = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
    for (const p of pages) {
      const answer = buildAnswer(p);
      expect([p.kind, answer.headers]).toEqual([
        p.kind,
        expect.objectContaining({
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': p.kind === 'cloak' ? `${page}; frame-src http: https:` : page,
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'strict-origin-when-cross-origin',
        }),
      ]);
      expect([p.kind, /<script/i.test(answer.body)]).toEqual([p.kind, false]);
    }
  });

  it('the cloak page frames its destination sandboxed and grants the frame nothing (decisions §22)', () => {
    const answer = buildAnswer({ kind: 'cloak', link: link({ title: 'T' }), location: 'https://example.com/o?a=1&b=2' });
    expect(answer.body).toContain('<iframe src="https://example.com/o?a=1&amp;b=2" title="T" sandbox="allow-scripts allow-forms allow-popups allow-same-origin"');
    expect(answer.headers['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(), clipboard-read=(), clipboard-write=(), payment=(), usb=(), display-capture=()');
  });

  it('answers the edge’s other pages, and puts a Set-Cookie on any answer', () => {
    expect(buildAnswer({ kind: 'association-file', json: '{"a":1}' })).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' },
      body: '{"a":1}',
    });
    const stats = buildAnswer({ kind: 'stats', stats: { shortCode: 'abc1234', title: '<b>', totalClicks: 3, clicksByDate: [], clicksByCountry: [], clicksByDevice: [] }, shortUrl: 'https://s.test/abc1234' });
    expect(stats.headers).toEqual({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'public, max-age=60',
      'x-robots-tag': 'noindex',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
    });
    expect(stats.body).toContain('&lt;b&gt;');
    expect(buildAnswer({ kind: 'redirect', location: 'https://example.com/' }, 'dl_pw_abc=1; Path=/abc').headers).toEqual({
      location: 'https://example.com/',
      'cache-control': 'no-store',
      'set-cookie': 'dl_pw_abc=1; Path=/abc',
    });
  });
});
