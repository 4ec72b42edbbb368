import { normalizeDomainName } from './domain-name';

describe(normalizeDomainName.name, () => {
  it.each([
    ['go.acme.com', 'go.acme.com'],
    ['GO.Acme.COM', 'go.acme.com'],
    ['a.b', 'a.b'],
    ['my-links.example.co.uk', 'my-links.example.co.uk'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['straße.test', 'xn--strae-oqa.test'],
    ['BÜCHER.example', 'xn--bcher-kva.example'],
    ['Links\u3002Dots\u3002test', 'links.dots.test'], // ideographic full stops
    // Spellings of another name: the service refuses its own hosts after this (domains.service.medium.spec.ts).
    ['\uff33\uff28\uff2f\uff0e\uff32\uff34', 'sho.rt'], // fullwidth letters
    ['sho.rt\u00ad', 'sho.rt'], // a soft hyphen
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('accepts %s as %s', (input, stored) => {
    expect(normalizeDomainName(input)).toBe(stored);
  });

  const long = `${Array.from({ length: 5 }, () => 'a'.repeat(50)).join('.')}.com`; // 258
  it.each([
    'https://go.acme.com',
    'go.acme.com/path',
    'go.acme.com:8443',
    'go.acme.com.',
    '.go.acme.com',
    '127.0.0.1',
    '[::1]',
    '::1',
    '10.0.0.1',
    'localhost',
    'com',
    `${'a'.repeat(64)}.com`,
    'go..acme.com',
    '-go.acme.com',
    'go-.acme.com',
    'go_acme.com',
    'go acme.com',
    ' go.acme.com',
    'user@go.acme.com',
    'go.acme.com?x=1',
    'go.acme.com#x',
    'go%2eacme.com',
    'a.123',
    '',
    '192.0.2.10',
    'intranet',
    'xn--zz.test', // invalid punycode
    'go.acme.test\uff1a8443', // a fullwidth colon port
    'go\\acme.test',
    `${'a.'.repeat(5120)}test`,
  ])('refuses %s', (input) => {
    expect(normalizeDomainName(input)).toBeNull();
  });

  it('refuses over-long names (254+ characters, a 64-character label, 10 KB)', () => {
    expect(long.length).toBeGreaterThan(253);
    expect(normalizeDomainName(long)).toBeNull();
    expect(normalizeDomainName(`${'a.'.repeat(126)}a`)).toBe(`${'a.'.repeat(126)}a`); // 253: the longest
    expect(normalizeDomainName(`${'a.'.repeat(126)}ab`)).toBeNull(); // 254
    expect(normalizeDomainName('x'.repeat(10240))).toBeNull();
  });

  it('refuses what is not a string', () => {
    for (const v of [null, undefined, 42, {}, ['go.acme.com']]) expect(normalizeDomainName(v)).toBeNull();
  });
});
