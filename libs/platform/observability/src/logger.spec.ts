import { redactUrl } from './logger';

describe(redactUrl.name, () => {
  it.each([
    ['/v1/shortLinks?key=dl_0123abcd', '/v1/shortLinks?key=[redacted]'],
    ['/v1/shortLinks?a=1&key=dl_0123&b=2', '/v1/shortLinks?a=1&key=[redacted]&b=2'],
    ['/x?KEY=dl_1&access_token=eyJ.x.y#frag', '/x?KEY=[redacted]&access_token=[redacted]#frag'],
    ['/x?monkey=banana&keys=1', '/x?monkey=banana&keys=1'],
    ['/api/links/key=abc', '/api/links/key=abc'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('leaves a missing URL alone', () => {
    expect(redactUrl(undefined)).toBeUndefined();
  });
});
