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
