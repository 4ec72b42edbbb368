import { snapshotOf, UA } from '@dl/testing';
import { buildAnswer } from './answer';
import { decide } from './decision';
import { RedirectLinkSnapshot } from './redirect-link';
import { Visit, VisitContext } from './visit';

/**
 * What a GET of a live link answers, from the request's own headers (a `Visit`) through the
 * decision to the answer: platform routing, the targeting gate and crawler previews (decisions §7).
 * Over HTTP (apps/redirect/src/redirect.e2e.spec.ts): one case of each, with GeoLite2 and the trusted header.
 */
const ROUTED = {
  originalUrl: 'https://example.com/original',
  iosUrl: 'https://apps.apple.com/app/id123',
  androidUrl: 'https://play.google.com/store/apps/details?id=com.example',
  webFallbackUrl: 'https://example.com/web',
};

/** Countries as GeoLite2 answers for these addresses (the e2e spec reads the real database). */
const COUNTRIES: Record<string, string> = { '8.8.8.8': 'US', '81.2.69.160': 'GB' };
const context: VisitContext = { countries: { country: (ip) => (ip ? (COUNTRIES[ip] ?? null) : null) }, trustedIpHeader: 'cf-connecting-ip' };

function answer(link: RedirectLinkSnapshot, headers: Record<string, string>) {
  const visit = new Visit({ method: 'GET', url: '/abc1234', headers: { host: 'localhost', ...headers }, socket: { remoteAddress: '127.0.0.1' } }, 'abc1234', context);
  visit.link = link;
  return buildAnswer(decide(visit));
}
const redirect = (location: string) => ({ status: 302, headers: { location, 'cache-control': 'no-store' }, body: '' });
const locationOf = (link: RedirectLinkSnapshot, headers: Record<string, string>) => answer(link, headers).headers.location;

describe('a visit’s answer: platform routing', () => {
  it.each([
    ['iPhone Safari', UA.iphone, ROUTED.iosUrl],
    ['iPad Safari', UA.ipad, ROUTED.iosUrl],
    ['Android Chrome', UA.android, ROUTED.androidUrl],
    ['desktop Chrome on Windows', UA.windowsChrome, ROUTED.webFallbackUrl],
    ['a bot on a link without Open Graph fields (like anyone)', UA.googlebot, ROUTED.webFallbackUrl],
  ])('%s → its destination, 302 no-store, no body', (_name, ua, location) => {
    expect(answer(snapshotOf(ROUTED), { 'user-agent': ua })).toEqual(redirect(location));
  });

  it('falls back to originalUrl when the platform destination is unset', () => {
    const bare = snapshotOf({ originalUrl: 'https://example.com/only' });
    for (const ua of [UA.iphone, UA.android, UA.windowsChrome]) expect([ua, locationOf(bare, { 'user-agent': ua })]).toEqual([ua, 'https://example.com/only']);
  });
});

describe('a visit’s answer: targeting rules send outsiders to webFallbackUrl, skipping platform routing', () => {
  it('countries: the client IP of the trusted header decides; an unknown country does not match', () => {
    const link = snapshotOf({ ...ROUTED, targetingRules: { countries: ['US'] } });
    expect(locationOf(link, { 'user-agent': UA.iphone, 'cf-connecting-ip': '8.8.8.8' })).toBe(ROUTED.iosUrl);
    expect(locationOf(link, { 'user-agent': UA.iphone, 'cf-connecting-ip': '81.2.69.160' })).toBe(ROUTED.webFallbackUrl);
    expect(locationOf(link, { 'user-agent': UA.iphone })).toBe(ROUTED.webFallbackUrl);
  });

  it('languages: any accepted language in the list matches', () => {
    const link = snapshotOf({ ...ROUTED, targetingRules: { languages: ['de', 'fr'] } });
    expect(locationOf(link, { 'user-agent': UA.android, 'accept-language': 'en-US;q=0.9, fr-CA;q=0.8' })).toBe(ROUTED.androidUrl);
    expect(locationOf(link, { 'user-agent': UA.android, 'accept-language': 'en-GB,en;q=0.9' })).toBe(ROUTED.webFallbackUrl);
  });

  it('devices: an Android visitor of an iOS-only link goes to the web fallback', () => {
    const link = snapshotOf({ ...ROUTED, targetingRules: { devices: ['ios'] } });
    expect(locationOf(link, { 'user-agent': UA.iphone })).toBe(ROUTED.iosUrl);
    expect(locationOf(link, { 'user-agent': UA.android })).toBe(ROUTED.webFallbackUrl);
  });

  it('outsiders go to originalUrl when there is no web fallback', () => {
    const link = snapshotOf({ originalUrl: 'https://example.com/o', iosUrl: 'https://apps.apple.com/app/id9', targetingRules: { devices: ['android'] } });
    expect(locationOf(link, { 'user-agent': UA.iphone })).toBe('https://example.com/o');
  });
});

describe('a visit’s answer: crawler previews', () => {
  const withOg = snapshotOf({
    ...ROUTED,
    ogTitle: 'Sale "><script>alert(1)</script>',
    ogDescription: "Tom & Jerry's <b>deal</b>",
    ogImageUrl: 'https://cdn.example.com/i.png?a=1&b="2"',
  });

  it.each([
    ['Googlebot', UA.googlebot],
    ['facebookexternalhit', UA.facebook],
    ['Slackbot', UA.slackbot],
    ['Twitterbot', UA.twitterbot],
  ])('%s gets 200 HTML with escaped og/twitter tags and a meta refresh', (_name, ua) => {
    const res = answer(withOg, { 'user-agent': ua });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('<meta property="og:title" content="Sale &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
    expect(res.body).toContain('<meta property="og:description" content="Tom &amp; Jerry&#39;s &lt;b&gt;deal&lt;/b&gt;">');
    expect(res.body).toContain('<meta property="og:image" content="https://cdn.example.com/i.png?a=1&amp;b=&quot;2&quot;">');
    expect(res.body).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(res.body).toContain('<meta name="twitter:title" content="Sale &quot;&gt;&lt;script&gt;');
    expect(res.body).toContain(`<meta http-equiv="refresh" content="0; url=${ROUTED.webFallbackUrl}">`);
  });

  it('a person on a link with Open Graph fields is redirected', () => {
    expect(answer(snapshotOf({ ...ROUTED, ogTitle: 'Hello' }), { 'user-agent': UA.iphone })).toEqual(redirect(ROUTED.iosUrl));
  });
});
