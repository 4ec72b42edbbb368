import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import { buildAnswer } from './answer';
import { decide, VisitFacts } from './decision';
import { RedirectLinkSnapshot } from './redirect-link';

/** Any UTF-16 units (lone surrogates, NUL, controls) and the characters that matter in URLs. */
const anyUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((u) => String.fromCharCode(...u));
const text = fc.oneof(
  anyUnits,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\u0000', '\ud800', 'é', '€', '\r\nSet-Cookie: x=1', '%', '%zz', '#', '?', '&', '='),
);
/** Stored destinations as old rows or caches may hold them (never normalised), and valid ones. */
const destination = fc.oneof(
  fc.tuple(fc.constantFrom('https://example.com/', 'http://bücher.example/', 'https://x.test/café/', 'https://', 'not a url '), text).map(([a, b]) => a + b),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  text,
);
const nullable = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });

const snapshot: fc.Arbitrary<RedirectLinkSnapshot> = fc.record({
  id: fc.uuid(),
  organizationId: fc.uuid(),
  shortCode: fc.constant('abc1234'),
  safetyStatus: fc.constantFrom('ok' as const, 'suspicious' as const, 'blocked' as const),
  safetyReason: nullable(text),
  originalUrl: destination,
  iosUrl: nullable(destination),
  androidUrl: nullable(destination),
  webFallbackUrl: nullable(destination),
  utmParameters: nullable(fc.record({ source: text, medium: text, campaign: text, term: text, content: text }, { requiredKeys: [] })),
  targetingRules: nullable(
    fc.record(
      { countries: fc.array(fc.constantFrom('US', 'FR', ''), { maxLength: 2 }), devices: fc.array(fc.constantFrom('ios', 'android', 'web'), { maxLength: 3 }), languages: fc.array(fc.constantFrom('en', 'fr'), { maxLength: 2 }) },
      { requiredKeys: [] },
    ),
  ),
  ogTitle: nullable(text),
  ogDescription: nullable(text),
  ogImageUrl: nullable(destination),
  isActive: fc.boolean(),
  expiresAt: nullable(fc.integer({ min: 0, max: 2_000_000 })),
  // Link controls (decisions §16): the fallback, the cloak page and its title go through the same builder.
  title: nullable(text),
  passwordHash: fc.constant(null),
  expiredUrl: nullable(destination),
  maxClicks: fc.constant(null),
  variants: fc.constant(null),
  redirectRules: fc.constant(null),
  cloak: fc.boolean(),
  publicStats: fc.constant(false),
});

const query = fc.oneof(
  text,
  fc.array(fc.tuple(text, text), { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k.replace(/[\ud800-\udfff]/g, ''))}=${v}`).join('&')),
  fc.constantFrom('utm_source=a%00b', 'q=%ED%A0%80', 'x=%', 'dl_click=evil', 'a=1&a=2&utm_campaign=%E2%82%AC'),
);

const visit: fc.Arbitrary<Omit<VisitFacts, 'link'>> = fc.record({
  now: fc.integer({ min: 0, max: 2_000_000 }),
  platform: fc.constantFrom('ios', 'android', 'web') as fc.Arbitrary<VisitFacts['platform']>,
  bot: fc.boolean(),
  country: fc.constantFrom(null, 'US', 'FR').map((c) => () => c),
  languages: fc.array(fc.constantFrom('en', 'fr'), { maxLength: 2 }).map((l) => () => l),
  query,
  pixelClickId: nullable(fc.uuid()),
});

describe('redirect decision + answer builder (property-based, decisions §14)', () => {
  it('never throws, and every answer has header values Node writes', () => {
    fc.assert(
      fc.property(fc.option(snapshot, { nil: null }), visit, (link, v) => {
        const answer = buildAnswer(decide({ ...v, link }));
        for (const [name, value] of Object.entries(answer.headers)) {
          expect(() => validateHeaderValue(name, value)).not.toThrow();
          expect(/^[\x20-\x7e]*$/.test(value)).toBe(true);
        }
        expect(typeof answer.body).toBe('string');
        expect([200, 302, 403, 404, 410, 503]).toContain(answer.status);
        if (answer.status === 302) expect(typeof answer.headers.location).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });

  it('a valid normalised destination is kept: the Location is its href with the visitor query added', () => {
    fc.assert(
      fc.property(snapshot, fc.webUrl({ withQueryParameters: true }), (link, url) => {
        const href = new URL(url).href;
        const live = { ...link, isActive: true, safetyStatus: 'ok' as const, expiresAt: null, cloak: false, targetingRules: null, iosUrl: null, androidUrl: null, webFallbackUrl: null, utmParameters: null, ogTitle: null, ogDescription: null, ogImageUrl: null, originalUrl: href };
        const answer = buildAnswer(decide({ link: live, now: 0, platform: 'web', bot: false, country: () => null, languages: () => [], query: '', pixelClickId: null }));
        expect(answer).toEqual({ status: 302, headers: { location: href, 'cache-control': 'no-store' }, body: '' });
      }),
      { numRuns: 500 },
    );
  });
});
