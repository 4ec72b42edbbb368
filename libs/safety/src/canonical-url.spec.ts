import fc from 'fast-check';
import { canonicalDomain, canonicalizeUrl, hostSuffixes, normalizeEscapes } from './canonical-url';

const key = (u: string) => canonicalizeUrl(u)?.key;

describe('canonicalizeUrl', () => {
  it.each([
    ['HTTP://EVIL.Test/Path', 'evil.test/Path'],
    ['http://evil.test./a', 'evil.test/a'],
    ['http://evil.test:80/a', 'evil.test/a'],
    ['https://evil.test:443/a', 'evil.test/a'],
    ['https://evil.test:8443/a', 'evil.test:8443/a'],
    ['http://evil.test', 'evil.test/'],
    ['http://evil.test/%61%62c', 'evil.test/abc'],
    ['http://evil.test/a%2fb', 'evil.test/a%2Fb'],
    ['http://%65vil.test/', 'evil.test/'],
    ['http://evil.test/a?x=%7e#frag', 'evil.test/a?x=~'],
    ['http://bücher.example/', 'xn--bcher-kva.example/'],
    ['http://BÜCHER.example./', 'xn--bcher-kva.example/'],
  ])('%s → %s', (raw, expected) => {
    expect(key(raw)).toBe(expected);
  });

  it('refuses what is not an http(s) URL', () => {
    expect(canonicalizeUrl('javascript:alert(1)')).toBeNull();
    expect(canonicalizeUrl('not a url')).toBeNull();
    expect(canonicalizeUrl('ftp://evil.test/')).toBeNull();
  });

  const label = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/);
  const host = fc.tuple(label, label).map(([a, b]) => `${a}.${b}`);
  const segment = fc.stringMatching(/^[A-Za-z0-9._~-]{0,8}$/);
  const path = fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`);

  it('removes dot segments the parser leaves (a final `.` after `.-`), escaped or not', () => {
    expect(key('http://a.a/a/.-/.')).toBe('a.a/a/.-/');
    expect(key('http://a.a/%61/.-/%2E')).toBe('a.a/a/.-/');
    expect(key('http://a.a/a/b/../c')).toBe('a.a/a/c');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(host, path, fc.boolean(), (h, p, https) => {
        const first = canonicalizeUrl(`${https ? 'https' : 'http'}://${h}${p}`)!;
        expect(key(`http://${first.key}`)).toBe(first.key);
      }),
    );
  });

  it('gives one key whatever the case of scheme and host, a trailing dot, the default port or escaped unreserved characters', () => {
    fc.assert(
      fc.property(host, path, fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (h, p, upper, dot, port, escape) => {
        const plain = key(`http://${h}${p}`);
        const spelledHost = `${upper ? h.toUpperCase() : h}${dot ? '.' : ''}${port ? ':80' : ''}`;
        const spelledPath = escape ? p.replace(/[A-Za-z]/g, (c) => `%${c.charCodeAt(0).toString(16)}`) : p;
        expect(key(`${upper ? 'HTTP' : 'http'}://${spelledHost}${spelledPath}`)).toBe(plain);
      }),
    );
  });

  it('gives an IDN host and its punycode one key', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-zäöüéñçß]{1,10}$/), label, (name, tld) => {
        const unicode = canonicalizeUrl(`http://${name}.${tld}/`);
        fc.pre(unicode !== null);
        expect(key(`http://${unicode!.host}/`)).toBe(unicode!.key);
        expect(unicode!.host).toMatch(/^[\x00-\x7f]+$/);
      }),
    );
  });

  it('keeps reserved escapes escaped, with upper-case hex', () => {
    fc.assert(
      fc.property(fc.constantFrom('%2f', '%3f', '%23', '%25', '%20'), (esc) => {
        expect(normalizeEscapes(esc)).toBe(esc.toUpperCase());
      }),
    );
  });
});

describe('canonicalDomain', () => {
  it.each([
    ['Evil.Test.', 'evil.test'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['localhost', null],
    ['evil.test/path', null],
    ['', null],
    ['a b.test', null],
  ])('%s → %s', (raw, expected) => {
    expect(canonicalDomain(raw)).toBe(expected);
  });

  it('lists a host and its parents', () => {
    expect(hostSuffixes('a.b.evil.test')).toEqual(['a.b.evil.test', 'b.evil.test', 'evil.test', 'test']);
    expect(hostSuffixes('10.0.0.1')).toEqual(['10.0.0.1']);
  });
});
