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

describe(hasSeveralHosts.name, () => {
  it('finds a second Host field line, in any case', () => {
    expect(hasSeveralHosts(['Host', 'a', 'Accept', '*/*'])).toBe(false);
    expect(hasSeveralHosts(['Host', 'a', 'HOST', 'b'])).toBe(true);
    expect(hasSeveralHosts([])).toBe(false);
  });
});
