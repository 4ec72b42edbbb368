import { startDnsServer, TestDnsServer } from '@dl/testing';
import { AppConfig } from '@dl/platform/config';
import { DnsVerifier, parseDnsServers } from './dns-verifier';

describe(DnsVerifier.name, () => {
  let dns: TestDnsServer;
  let verifier: DnsVerifier;
  const token = '0123456789abcdef0123456789abcdef';

  beforeAll(async () => {
    dns = await startDnsServer();
    verifier = new DnsVerifier({ DNS_SERVERS: dns.address } as AppConfig);
  });
  afterAll(() => dns.close());

  it('parses DNS_SERVERS', () => {
    expect(parseDnsServers(' 127.0.0.1:5353, [::1]:53 ,')).toEqual(['127.0.0.1:5353', '[::1]:53']);
    expect(parseDnsServers(undefined)).toEqual([]);
  });

  it('finds the record among others, through the configured server', async () => {
    dns.setTxt('_dl-verify.go.a.test', ['v=spf1 -all', `dl-verify=${token}`]);
    const before = dns.queries;
    await expect(verifier.check('go.a.test', token)).resolves.toEqual({ ok: true });
    expect(dns.queries).toBeGreaterThan(before);
  });

  it('joins a long value split into character-strings', async () => {
    const long = `dl-verify=${token}${'x'.repeat(300)}`;
    dns.setTxt('_dl-verify.long.a.test', [long]);
    await expect(verifier.check('long.a.test', `${token}${'x'.repeat(300)}`)).resolves.toEqual({ ok: true });
  });

  it('says why it failed', async () => {
    dns.setTxt('_dl-verify.wrong.a.test', ['dl-verify=ffffffffffffffffffffffffffffffff']);
    await expect(verifier.check('wrong.a.test', token)).resolves.toEqual({
      ok: false,
      error: `The TXT record at _dl-verify.wrong.a.test does not contain dl-verify=${token}`,
    });
    await expect(verifier.check('missing.a.test', token)).resolves.toEqual({
      ok: false,
      error: 'No TXT record found at _dl-verify.missing.a.test',
    });
    dns.setTxt('_dl-verify.go.a.test', null);
    await expect(verifier.check('go.a.test', token)).resolves.toMatchObject({ ok: false });
  });

  it('reports an unreachable server as a failed lookup', async () => {
    const silent = new DnsVerifier({ DNS_SERVERS: '127.0.0.1:9' } as AppConfig);
    const result = await silent.check('go.a.test', token);
    expect(result).toMatchObject({ ok: false });
    expect((result as { error: string }).error).toMatch(/^DNS lookup of _dl-verify\.go\.a\.test failed \(E[A-Z]+\)$/);
  }, 15000);
});
