import { parseAllowList, parseIp, refusalReason } from './address-guard';

describe('refusalReason', () => {
  const none = parseAllowList(undefined);

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    // IPv4-compatible IPv6, ::/96 (decisions §14), whatever IPv4 it embeds.
    ['::7f00:1', 'IPv4-compatible'],
    ['[::a00:1]', 'IPv4-compatible'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['::1:2', 'IPv4-compatible'],
  ])('refuses %s (%s)', (ip, kind) => {
    expect(refusalReason(ip, none)).toContain(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (ip) => {
    expect(refusalReason(ip, none)).toBeNull();
  });

  it('lets allow-listed ranges through, but never the metadata address', () => {
    const allow = parseAllowList('127.0.0.1/32, 169.254.0.0/16, ::1');
    expect(refusalReason('127.0.0.1', allow)).toBeNull();
    expect(refusalReason('::ffff:127.0.0.1', allow)).toBeNull();
    expect(refusalReason('::1', allow)).toBeNull();
    expect(refusalReason('127.0.0.2', allow)).toContain('loopback');
    expect(refusalReason('169.254.1.1', allow)).toBeNull();
    expect(refusalReason('169.254.169.254', allow)).toContain('cloud metadata');
  });

  it('refuses a bad allow-list entry at boot', () => {
    expect(() => parseAllowList('127.0.0.1/32,nope')).toThrow('WEBHOOK_ALLOW_CIDRS: "nope" is not an IP address or CIDR');
  });

  it('sees through the URL parser: 0x7f000001, 2130706433 and 0177.0.0.1 are 127.0.0.1', () => {
    for (const u of ['http://0x7f000001/', 'http://2130706433/', 'http://0177.0.0.1/']) {
      expect(parseIp(new URL(u).hostname)?.toString()).toBe('127.0.0.1');
    }
    expect(parseIp(new URL('http://[::ffff:127.0.0.1]/').hostname)?.toString()).toBe('127.0.0.1');
    expect(parseIp('example.com')).toBeNull();
  });
});
