import { ThreatMatcher } from './threat-matcher';
import { lookalikeReason, mixesScripts, parseBrands, skeleton } from './lookalike';
import { screenLocally } from './screen';

const brands = parseBrands('paypal.com, google.com,apple');

describe('lookalike rules', () => {
  it('folds confusables to Latin', () => {
    expect(skeleton('раураl')).toBe('paypal');
    expect(skeleton('gооgle')).toBe('google');
    expect(skeleton('paypa1')).toBe('paypal');
    expect(skeleton('pàypal')).toBe('paypal');
  });

  it('sees mixed scripts in a label', () => {
    expect(mixesScripts('pаypal')).toBe(true);
    expect(mixesScripts('пример')).toBe(false);
    expect(mixesScripts('bücher')).toBe(false);
  });

  it.each([
    ['xn--pypal-4ve.com', 'mixed scripts'], // pаypal with a Cyrillic а
    [new URL('http://раураӏ.com/').hostname, 'look-alike of paypal.com'], // all Cyrillic (ӏ is the palochka)
    ['paypa1.com', 'look-alike of paypal.com'],
    ['secure.paypa1.net', 'look-alike of paypal.com'],
    [new URL('http://àpple.test/').hostname, 'look-alike of apple'],
  ])('%s is suspicious: %s', (host, reason) => {
    expect(lookalikeReason(host, brands)).toBe(reason);
  });

  it.each(['paypal.com', 'www.paypal.com', 'google.com', 'example.com', 'xn--bcher-kva.example', '10.0.0.1', 'apple.test'])('%s is not', (host) => {
    expect(lookalikeReason(host, brands)).toBeNull();
  });
});

describe('screenLocally', () => {
  const matcher = new ThreatMatcher();
  matcher.add('domain', 'evil.test', 'blocklisted domain');

  it('blocks credentials in the URL before anything else', () => {
    expect(screenLocally('https://bank.com@evil.test/', matcher, brands)).toEqual({ status: 'blocked', reason: 'credentials in URL' });
    expect(screenLocally('https://user:pw@fine.test/', matcher, brands)).toEqual({ status: 'blocked', reason: 'credentials in URL' });
  });

  it('blocks feed entries and warns on look-alikes', () => {
    expect(screenLocally('https://x.evil.test/', matcher, brands)).toEqual({ status: 'blocked', reason: 'blocklisted domain' });
    expect(screenLocally('https://paypa1.com/', matcher, brands)).toEqual({ status: 'suspicious', reason: 'look-alike of paypal.com' });
    expect(screenLocally('https://example.com/', matcher, brands)).toEqual({ status: 'ok', reason: null });
  });
});
