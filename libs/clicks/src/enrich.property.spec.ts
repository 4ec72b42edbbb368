import fc from 'fast-check';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { hasUnstorableText } from '@dl/platform/db';
import { enrichClick, invalidClickReason, utcDay } from './enrich';
import { GeoIp } from '@dl/platform/geo';

const anyUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 60 }).map((u) => String.fromCharCode(...u));
const text = fc.oneof(anyUnits, fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('', '\u0000', '\ud800', ' ', 'x'.repeat(5000)));
const ua = fc.oneof(
  text,
  fc.constantFrom(
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
    'Googlebot/2.1',
  ),
);
const anything = fc.anything({ withBigInt: true, withDate: true, withNullPrototype: true, withSparseArray: true });

/** Jobs that pass the validator but carry hostile facts (what an older edge may have queued). */
const job: fc.Arbitrary<ClickCapturedJob> = fc.record({
  id: fc.uuid(),
  linkId: fc.uuid(),
  organizationId: fc.uuid(),
  clickedAt: fc.oneof(text, fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'nope' : d.toISOString()))),
  ip: fc.option(fc.oneof(text, fc.ipV4(), fc.ipV6()), { nil: null }),
  userAgent: fc.option(ua, { nil: null }),
  referrer: fc.option(fc.oneof(text, fc.webUrl()), { nil: null }),
  acceptLanguage: fc.option(fc.oneof(text, fc.constantFrom('en-GB,en;q=0.9', 'fr;q=x', '*')), { nil: null }),
  query: fc.dictionary(fc.constantFrom('utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'other'), text, { maxKeys: 6 }),
});

describe('click validator and enrichment (property-based, decisions §14)', () => {
  const geo = GeoIp.city(undefined);

  it('the validator never throws: any value gets a reason or null', () => {
    fc.assert(
      fc.property(fc.oneof(anything, job as fc.Arbitrary<unknown>), (v) => {
        const reason = invalidClickReason(v);
        expect(reason === null || typeof reason === 'string').toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('enrichment never throws on a job the validator accepts, and derives only bounded values', () => {
    fc.assert(
      fc.property(job, (j) => {
        expect(invalidClickReason(j)).toBeNull();
        const c = enrichClick(j, geo, new Date('2026-11-25T00:00:00Z'));
        expect(c.id).toBe(j.id);
        expect(Number.isNaN(c.clickedAt.getTime())).toBe(false);
        expect(c.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(c.day).toBe(c.clickedAt.toISOString().slice(0, 10));
        expect(c.userAgent === null || c.userAgent.length <= 1024).toBe(true);
        expect(c.referrer === null || c.referrer.length <= 2048).toBe(true);
        expect(c.utmSource === null || c.utmSource.length <= 512).toBe(true);
        // Derived values never invent text Postgres refuses (raw facts are the edge's to clean).
        for (const v of [c.referrerHost, c.language, c.browser, c.os, c.deviceType, c.platform, c.visitorHash, c.fingerprint]) {
          if (typeof v === 'string' && !hasUnstorableText(j.referrer ?? '') && !hasUnstorableText(j.userAgent ?? '') && !hasUnstorableText(j.acceptLanguage ?? '')) {
            expect(hasUnstorableText(v)).toBe(false);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('the rollup day of any storable time is its UTC date, whatever days came before (the cache is bounded)', () => {
    const time = fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(fc.array(time, { minLength: 1, maxLength: 100 }), (times) => {
        for (const t of times) expect(utcDay(t)).toBe(new Date(t).toISOString().slice(0, 10));
      }),
      { numRuns: 500 },
    );
    // Both sides of a day's last millisecond.
    expect(utcDay(Date.UTC(2026, 10, 28, 23, 59, 59, 999))).toBe('2026-11-28');
    expect(utcDay(Date.UTC(2026, 10, 29))).toBe('2026-11-29');
  });
});
