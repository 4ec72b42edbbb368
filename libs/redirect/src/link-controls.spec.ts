import { decide as decideVisit, pickVariant, VisitFacts } from './decision';
import { snapshotOf } from '@dl/testing';
import { RedirectLinkSnapshot } from './redirect-link';
import { acceptedLanguages, userAgentBrowser, userAgentOs, userAgentTraits } from './visitor';

// The link controls of decisions §16 as the edge decides them, from real user agents and
// Accept-Language headers: redirect rules (first match wins, before targeting, variants and
// platform routing), sticky A/B variants and their split, expiry and click-cap fallbacks,
// passwords and cloaking. apps/redirect/src/link-controls.e2e.spec.ts keeps one of each over
// HTTP with the clicks they record, the password form and throttle, and the click cap.
const UA = {
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.113 Mobile Safari/537.36',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  windowsEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91',
  samsung: 'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36',
};
const NOW = Date.parse('2026-06-01T00:00:00Z');

/** The decision for a link and a visit's facts. */
const decide = (l: RedirectLinkSnapshot, v: Omit<VisitFacts, 'link'>) => decideVisit({ ...v, link: l });

const link = (over: Partial<RedirectLinkSnapshot> = {}): RedirectLinkSnapshot => snapshotOf({ id: '6f1c1d3e-1111-4000-8000-000000000001', shortCode: 'ctl12345', ...over });

/** A visit as the edge builds it from a request's headers. */
function visit(ua: string, o: { country?: string | null; acceptLanguage?: string; query?: string; ip?: string; over?: Partial<VisitFacts> } = {}): Omit<VisitFacts, 'link'> {
  const traits = userAgentTraits(ua);
  const query = o.query ?? '';
  return {
    now: NOW,
    platform: traits.platform,
    bot: traits.bot,
    country: () => o.country ?? null,
    languages: () => acceptedLanguages(o.acceptLanguage ?? null),
    os: () => userAgentOs(ua),
    browser: () => userAgentBrowser(ua),
    visitorKey: () => `${o.ip ?? '203.0.113.7'}|${ua}`,
    query,
    queryParams: () => new URLSearchParams(query),
    pixelClickId: null,
    ...o.over,
  };
}

describe('redirect rules (first match wins, before targeting, variants and platform routing)', () => {
  const rules = [
    { conditions: { countries: ['GB'] }, url: 'https://r.example/gb' },
    { conditions: { languages: ['fr'] }, url: 'https://r.example/fr' },
    { conditions: { devices: ['android' as const] }, url: 'https://r.example/android' },
    { conditions: { os: ['macOS' as const] }, url: 'https://r.example/mac' },
    { conditions: { browsers: ['Firefox' as const, 'Samsung Internet' as const] }, url: 'https://r.example/firefox-samsung' },
    { conditions: { query: { ref: 'news' } }, url: 'https://r.example/news' },
    { conditions: { after: '2020-01-01T00:00:00Z', before: '2020-02-01T00:00:00Z' }, url: 'https://r.example/past' },
    { conditions: { after: '2020-01-01T00:00:00Z', browsers: ['Edge' as const] }, url: 'https://r.example/edge-since-2020' },
  ];
  const ruled = link({ iosUrl: 'https://apps.apple.com/app/id1', redirectRules: rules as never, targetingRules: { devices: ['ios'] } });

  it.each([
    ['country', visit(UA.windowsChrome, { country: 'GB' }), 'https://r.example/gb', 0],
    ['language (a later one of Accept-Language)', visit(UA.windowsChrome, { acceptLanguage: 'de;q=0.9, fr-FR;q=0.8' }), 'https://r.example/fr', 1],
    ['device', visit(UA.android), 'https://r.example/android', 2],
    ['OS', visit(UA.macSafari), 'https://r.example/mac', 3],
    ['browser', visit(UA.linuxFirefox), 'https://r.example/firefox-samsung', 4],
    ['query (exact value), kept on the destination', visit(UA.windowsChrome, { query: 'ref=news' }), 'https://r.example/news?ref=news', 5],
    ['time window and browser', visit(UA.windowsEdge), 'https://r.example/edge-since-2020', 7],
  ])('%s', (_name, v, location, rule) => {
    expect(decide(ruled, v)).toEqual({ kind: 'redirect', location, rule });
  });

  it('first match wins: a GB visitor speaking French on Android gets rule 0', () => {
    expect(decide(ruled, visit(UA.android, { country: 'GB', acceptLanguage: 'fr' }))).toEqual({ kind: 'redirect', location: 'https://r.example/gb', rule: 0 });
  });

  it('no rule matching: the targeting gate, then platform routing (no rule index)', () => {
    expect(decide(ruled, visit(UA.iphone))).toEqual({ kind: 'redirect', location: 'https://apps.apple.com/app/id1' });
    // Samsung Internet on Android: the device rule (2) comes before the browser rule (4).
    expect(decide(ruled, visit(UA.samsung))).toEqual({ kind: 'redirect', location: 'https://r.example/android', rule: 2 });
    // Windows Chrome outside the past window: no rule; targeting (ios only) sends it to the fallback (here the original URL).
    expect(decide(ruled, visit(UA.windowsChrome, { query: 'ref=other' }))).toEqual({ kind: 'redirect', location: 'https://example.com/o?ref=other' });
  });
});

describe('A/B variants', () => {
  const variants = [
    { url: 'https://ab.example/a', weight: 30 },
    { url: 'https://ab.example/b', weight: 70 },
  ];

  it('a visitor keeps the same variant, and its index is the choice', () => {
    const first = decide(link({ variants }), visit(UA.windowsChrome, { ip: '203.0.113.7' }));
    for (let i = 0; i < 20; i++) expect(decide(link({ variants }), visit(UA.windowsChrome, { ip: '203.0.113.7' }))).toEqual(first);
    expect(first).toEqual({ kind: 'redirect', location: variants[(first as { variant: number }).variant].url, variant: expect.any(Number) });
  });

  it('2,000 visitors split within ±5% of the weights', () => {
    const counts = [0, 0];
    for (let i = 0; i < 2000; i++) counts[pickVariant(link({ variants }), `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}|${UA.windowsChrome}`)]++;
    expect(Math.abs(counts[0] / 2000 - 0.3)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(counts[1] / 2000 - 0.7)).toBeLessThanOrEqual(0.05);
  });

  it('iOS and Android destinations still win for app visitors; variants replace the web destination', () => {
    const l = link({ variants, iosUrl: 'https://apps.apple.com/app/id2', webFallbackUrl: 'https://example.com/w' });
    expect(decide(l, visit(UA.iphone))).toEqual({ kind: 'redirect', location: 'https://apps.apple.com/app/id2' });
    expect((decide(l, visit(UA.windowsChrome)) as { location: string }).location).toMatch(/^https:\/\/ab\.example\/[ab]$/);
  });
});

describe('expiry and click-cap fallbacks, passwords, cloaking', () => {
  it('expired by date or clicks: expiredUrl when set, else the 410 page', () => {
    const past = NOW - 1000;
    expect(decide(link({ expiresAt: past, expiredUrl: 'https://example.com/over' }), visit(UA.windowsChrome))).toEqual({ kind: 'expired-redirect', location: 'https://example.com/over' });
    expect(decide(link({ expiresAt: past }), visit(UA.windowsChrome))).toEqual({ kind: 'expired' });
    const capped = link({ maxClicks: 100, expiredUrl: 'https://example.com/sold-out' });
    expect(decide(capped, visit(UA.windowsChrome, { over: { capReached: true } }))).toEqual({ kind: 'expired-redirect', location: 'https://example.com/sold-out' });
    expect(decide(capped, visit(UA.windowsChrome))).toEqual({ kind: 'redirect', location: 'https://example.com/o' });
  });

  it('a password link answers the form to visitors and crawlers until the visitor proved it', () => {
    const secret = link({ passwordHash: 'scrypt$x', ogTitle: 'Secret' });
    expect(decide(secret, visit(UA.windowsChrome))).toMatchObject({ kind: 'password' });
    expect(decide(secret, visit('facebookexternalhit/1.1'))).toMatchObject({ kind: 'password' });
    expect(decide(secret, visit(UA.windowsChrome, { over: { unlocked: true } }))).toEqual({ kind: 'redirect', location: 'https://example.com/o' });
  });

  it('cloaking frames a web destination; app-store destinations are never cloaked', () => {
    const cloaked = link({ originalUrl: 'https://example.com/page?a=1&b=2', iosUrl: 'https://apps.apple.com/app/id3', cloak: true });
    expect(decide(cloaked, visit(UA.windowsChrome))).toMatchObject({ kind: 'cloak', location: 'https://example.com/page?a=1&b=2' });
    expect(decide(cloaked, visit(UA.iphone))).toEqual({ kind: 'redirect', location: 'https://apps.apple.com/app/id3' });
  });
});
