import { isShortCode } from '@dl/redirect';
import { hasSeveralHosts, visitedCode } from './visit.route';

describe(visitedCode.name, () => {
  const owned = new Set(['health', 'metrics']);
  const code = (url: string) => visitedCode(url, owned);

  it('reads the code as the router read `/:shortCode`: one segment, decoded, query, fragment and one trailing slash ignored', () => {
    expect(code('/abc1234')).toBe('abc1234');
    expect(code('/abc1234?utm_source=x')).toBe('abc1234');
    expect(code('/abc1234/?a=1')).toBe('abc1234');
    expect(code('/abc1234#top')).toBe('abc1234');
    expect(code('/%61bc1234')).toBe('abc1234');
    expect(code('/abc1234+')).toBe('abc1234+');
    expect(code('/abc%2Fdef')).toBe('abc/def');
    expect(code('/%E2%82%AC')).toBe('€');
    expect(code('http://go.example.com/abc1234?x=1')).toBe('abc1234');
    expect(code(`/${'a'.repeat(256)}`)).toBe('a'.repeat(256));
  });

  it('leaves other paths and the app’s static routes to Fastify (null)', () => {
    for (const url of ['/', '/a/b', '/abc1234//', '//abc1234', '*', 'http://host', '/health', '/health/', '/h%65alth', '/metrics?x']) expect([url, code(url)]).toEqual([url, null]);
  });

  it('answers a malformed escape or an over-long code with the 404 page (undefined)', () => {
    for (const url of ['/%zz', '/abc%', `/${'a'.repeat(257)}`, `/${'%61'.repeat(300)}`]) expect([url, code(url)]).toEqual([url, undefined]);
  });
});

describe('hostile paths never reach a lookup (each answers the 404 page; over HTTP: redirect.e2e.spec.ts)', () => {
  const owned = new Set(['health', 'metrics']);
  // null: Fastify's router answers (its 404 page, or the root's); undefined: the 404 page at once;
  // a code: the 404 page too, as no code the service issues looks like it (isShortCode).
  it.each([
    ['percent-encoded bytes', '/%E2%82%AC%00abc', '€\u0000abc'],
    ['a malformed escape', '/%zz', undefined],
    ['an encoded slash', '/abc%2Fdef', 'abc/def'],
    ['a nested path', '/abc/def', null],
    ['a very long path', `/${'a'.repeat(5000)}`, undefined],
    ['the root', '/', null],
    ['dot segments', '/..%2F..%2Fetc%2Fpasswd', '../../etc/passwd'],
    ['odd characters', "/a'b\"<c>", "a'b\"<c>"],
  ])('%s', (_name, path, code) => {
    const read = visitedCode(path, owned);
    expect(read).toBe(code);
    if (typeof read === 'string') expect(isShortCode(read)).toBe(false);
  });

  it('the codes the service issues are looked up: base62, custom codes with - and _, up to 64 characters', () => {
    for (const code of ['abc1234', 'Sale2026', 'spring_sale-2', 'a'.repeat(64)]) expect([code, isShortCode(code)]).toEqual([code, true]);
    for (const code of ['', 'a'.repeat(65), 'abc+', 'é', 'a b']) expect([code, isShortCode(code)]).toEqual([code, false]);
  });
});

describe(hasSeveralHosts.name, () => {
  it('finds a second Host field line, in any case', () => {
    expect(hasSeveralHosts(['Host', 'a', 'Accept', '*/*'])).toBe(false);
    expect(hasSeveralHosts(['Host', 'a', 'HOST', 'b'])).toBe(true);
    expect(hasSeveralHosts([])).toBe(false);
  });
});
