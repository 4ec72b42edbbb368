import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { composeDestination, decide as decideVisit, matchesTargeting, pickVariant, VisitFacts } from './decision';
import { snapshotOf } from '@dl/testing';
import { RedirectLinkSnapshot } from './redirect-link';
import { acceptedLanguages, userAgentTraits } from './visitor';

const link = (over: Partial<RedirectLinkSnapshot> = {}): RedirectLinkSnapshot => snapshotOf({ iosUrl: 'https://apps.apple.com/app/id1', androidUrl: 'https://play.google.com/store/apps/details?id=x', webFallbackUrl: 'https://example.com/w', ...over });

const visit = (over: Partial<VisitFacts> = {}): VisitFacts => ({
  now: 1_000_000,
  link: null,
  platform: 'web',
  bot: false,
  country: () => null,
  languages: () => [],
  query: '',
  pixelClickId: null,
  ...over,
});

/** The decision of a visit to `l`. */
const decide = (l: RedirectLinkSnapshot | null, v: VisitFacts) => decideVisit({ ...v, link: l });

describe('decide (decisions §7)', () => {
  it('unknown and inactive → not-found; expired → expired (checked at the given time)', () => {
    expect(decide(null, visit())).toEqual({ kind: 'not-found' });
    expect(decide(link({ isActive: false }), visit())).toEqual({ kind: 'not-found' });
    expect(decide(link({ expiresAt: 1_000_000 }), visit())).toEqual({ kind: 'expired' });
    expect(decide(link({ expiresAt: 1_000_001 }), visit()).kind).toBe('redirect');
  });

  it('suspicious: the warning page (crawlers too) until the visitor continues; blocked: disabled, whatever the visitor sends (decisions §22)', () => {
    const suspicious = link({ safetyStatus: 'suspicious', safetyReason: 'mixed scripts' });
    const warning = { kind: 'warning', link: suspicious, destination: 'https://example.com/w', query: 'a=1' };
    expect(decide(suspicious, visit({ query: 'a=1' }))).toEqual(warning);
    expect(decide(suspicious, visit({ query: 'a=1', bot: true }))).toEqual(warning);
    expect(decide(suspicious, visit({ query: 'a=1', continued: true }))).toEqual({ kind: 'redirect', location: 'https://example.com/w?a=1' });
    const blocked = link({ safetyStatus: 'blocked', safetyReason: 'malware', passwordHash: 'h', expiresAt: 1 });
    expect(decide(blocked, visit({ continued: true, unlocked: true }))).toEqual({ kind: 'disabled', reason: 'malware' });
  });

  it('a bot gets the preview only when the link has an Open Graph field', () => {
    expect(decide(link(), visit({ bot: true })).kind).toBe('redirect');
    expect(decide(link({ ogDescription: 'd' }), visit({ bot: true })).kind).toBe('preview');
  });

  it('dl_click only on web destinations', () => {
    const web = decide(link(), visit({ pixelClickId: 'c1' }));
    expect(web).toEqual({ kind: 'redirect', location: 'https://example.com/w?dl_click=c1' });
    const ios = decide(link(), visit({ platform: 'ios', pixelClickId: 'c1' }));
    expect(ios).toEqual({ kind: 'redirect', location: 'https://apps.apple.com/app/id1' });
    const iosFallback = decide(link({ iosUrl: null }), visit({ platform: 'ios', pixelClickId: 'c1' }));
    expect(iosFallback).toEqual({ kind: 'redirect', location: 'https://example.com/o?dl_click=c1' });
  });
});

describe('matchesTargeting', () => {
  it('every rule that is set must match; the country is looked up only when needed', () => {
    let lookups = 0;
    const v = visit({ platform: 'android', languages: () => ['pt', 'en'], country: () => (lookups++, 'BR') });
    expect(matchesTargeting(link({ targetingRules: { devices: ['ios'], countries: ['BR'] } }), v)).toBe(false);
    expect(lookups).toBe(0);
    expect(matchesTargeting(link({ targetingRules: { devices: ['android'], languages: ['en'], countries: ['BR'] } }), v)).toBe(true);
    expect(matchesTargeting(link({ targetingRules: { countries: ['US'] } }), v)).toBe(false);
    expect(matchesTargeting(link({ targetingRules: { languages: ['de'] } }), v)).toBe(false);
  });
});

describe('composeDestination', () => {
  it('returns the stored URL untouched when there is nothing to add', () => {
    expect(composeDestination('https://example.com/a?b=1', link(), '', null)).toBe('https://example.com/a?b=1');
  });

  it('visitor query passes through, stored keys win, UTM added when absent, dl_click set', () => {
    const out = composeDestination(
      'https://example.com/a?keep=1',
      link({ utmParameters: { source: 's', term: 't' } }),
      'keep=2&utm_source=v&x=%20y&dl_click=evil',
      'click-1',
    );
    expect(out).toBe('https://example.com/a?keep=1&utm_source=v&x=+y&utm_term=t&dl_click=click-1');
  });

  it('cannot change the host or path', () => {
    const out = composeDestination('https://example.com/a', link(), '@evil.com/x=1&next=https://evil.com', null);
    expect(new URL(out).host).toBe('example.com');
    expect(new URL(out).pathname).toBe('/a');
  });
});

describe('visitor facts', () => {
  it('Accept-Language → primary subtags in order, q=0 dropped', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0, *;q=0.5')).toEqual(['fr', 'en']);
    expect(acceptedLanguages(null)).toEqual([]);
  });

  it('Accept-Language lists are memoized, shared and frozen; an overlong header is parsed but not kept', () => {
    const header = 'de-CH, de;q=0.9, it;q=0.5';
    const first = acceptedLanguages(header);
    expect(first).toEqual(['de', 'it']);
    expect(acceptedLanguages(header)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const long = `pt-BR, ${'x-privateusetag;q=0.1, '.repeat(12)}en`; // 300 characters, 14 parts
    expect(acceptedLanguages(long)).toEqual(['pt', 'en']);
    expect(acceptedLanguages(long)).not.toBe(acceptedLanguages(long));
  });
});

describe('pickVariant', () => {
  /** The bucket as every release before the one-shot hash computed it: it must never move (sticky variants). */
  const chainedBucket = (visitorKey: string, linkId: string) =>
    createHash('md5').update(visitorKey).update('\n').update(linkId).digest().readUInt32BE(0) % 100;
  const hundred = { id: '', variants: Array.from({ length: 100 }, (_, i) => ({ url: `https://v.example/${i}`, weight: 1 })) };

  it('a visitor lands in the bucket the chained md5 gave (any visitor key, any link id)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.uuid(), (visitorKey, id) => {
        expect(pickVariant({ ...hundred, id }, visitorKey)).toBe(chainedBucket(visitorKey, id));
      }),
      { numRuns: 2000 },
    );
  });

  it('platforms and bots from real user agents', () => {
    expect(userAgentTraits('Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15')).toEqual({ platform: 'ios', bot: false });
    expect(userAgentTraits('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36')).toEqual({ platform: 'android', bot: false });
    expect(userAgentTraits('WhatsApp/2.23.20.0 A').bot).toBe(true);
    expect(userAgentTraits('Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)').bot).toBe(true);
    expect(userAgentTraits(null)).toEqual({ platform: 'web', bot: true });
  });
});
