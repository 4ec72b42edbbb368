import { guardedFetch } from './guarded-fetch';

describe('guardedFetch (the OIDC client fetch)', () => {
  it.each([
    ['http://127.0.0.1:9/.well-known/openid-configuration', 'loopback'],
    ['https://10.1.2.3/.well-known/openid-configuration', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'cloud metadata'],
    ['https://[::1]:8443/x', 'loopback'],
    ['https://localhost/x', 'loopback'],
  ])('refuses %s before sending (%s)', async (url, range) => {
    await expect(guardedFetch(new Set())(url)).rejects.toThrow(new RegExp(`identity provider address refused: .*${range}`));
  });

  it('lets a host:port of SSO_ALLOW_HTTP_HOSTS through (here to a closed port: the fetch itself fails)', async () => {
    const err = await guardedFetch(new Set(['127.0.0.1:9']))('http://127.0.0.1:9/x').catch((e: Error) => e);
    expect((err as Error).message).toBe('fetch failed');
  });
});
