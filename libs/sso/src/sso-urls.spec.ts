import { checkIdpUrl, parseAllowHttpHosts } from './sso-urls';
import { SecretBox } from './sso-secret';

describe('identity provider URLs (decisions §25)', () => {
  const allow = parseAllowHttpHosts(' 127.0.0.1:4000, IdP.Local:80 ');

  it('https is accepted as typed (an OIDC issuer is compared exactly)', () => {
    expect(checkIdpUrl('https://login.acme.com', allow)).toBe('https://login.acme.com');
    expect(checkIdpUrl(' https://login.acme.com/tenant/v2.0 ', allow)).toBe('https://login.acme.com/tenant/v2.0');
  });

  it('http only for a host:port of SSO_ALLOW_HTTP_HOSTS', () => {
    expect(checkIdpUrl('http://127.0.0.1:4000', allow)).toBe('http://127.0.0.1:4000');
    expect(checkIdpUrl('http://idp.local/realm', allow)).toBe('http://idp.local/realm');
    expect(checkIdpUrl('http://127.0.0.1:4001', allow)).toBeNull();
    expect(checkIdpUrl('http://login.acme.com', allow)).toBeNull();
  });

  it.each([['javascript:alert(1)'], ['ftp://x.test'], ['https://user:pw@x.test'], ['https://x.test/#f'], ['not a url'], [''], [`https://x.test/${'a'.repeat(2000)}`], [42], [null]])(
    'refuses %p',
    (value) => expect(checkIdpUrl(value, allow)).toBeNull(),
  );
});

describe('SecretBox', () => {
  it('seals so that only the same key opens; an altered value opens to null', () => {
    const box = new SecretBox('a'.repeat(32));
    const sealed = box.seal('client-secret');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('client-secret');
    expect(box.seal('client-secret')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('client-secret');
    expect(new SecretBox('b'.repeat(32)).open(sealed)).toBeNull();
    expect(box.open(`${sealed.slice(0, -2)}AA`)).toBeNull();
    expect(box.open('garbage')).toBeNull();
  });
});
