import { clientIp, normalizeIp } from './client-ip';

describe('clientIp', () => {
  it('the trusted header only when configured, its first address, validated', () => {
    const headers = { 'x-forwarded-for': '8.8.8.8', 'cf-connecting-ip': '1.1.1.1, 2.2.2.2' };
    expect(clientIp(headers, '::ffff:10.0.0.1', undefined)).toBe('10.0.0.1');
    expect(clientIp(headers, '10.0.0.1', 'cf-connecting-ip')).toBe('1.1.1.1');
    expect(clientIp({ 'cf-connecting-ip': 'not-an-ip' }, '10.0.0.1', 'cf-connecting-ip')).toBe('10.0.0.1');
    expect(clientIp({ 'cf-connecting-ip': ['3.3.3.3', '4.4.4.4'] }, '10.0.0.1', 'cf-connecting-ip')).toBe('3.3.3.3');
    expect(clientIp({}, undefined, undefined)).toBeNull();
  });

  it('normalizeIp: mapped IPv4, brackets, spaces; anything else is null', () => {
    expect(normalizeIp('[2001:db8::1]')).toBe('2001:db8::1');
    expect(normalizeIp(' ::FFFF:192.0.2.1 ')).toBe('192.0.2.1');
    expect(normalizeIp('::ffff:zz')).toBeNull();
    expect(normalizeIp('example.com')).toBeNull();
    expect(normalizeIp('')).toBeNull();
  });
});
