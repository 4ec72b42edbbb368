import { ThreatMatcher } from './threat-matcher';

describe(ThreatMatcher.name, () => {
  it('grows past its first capacity and keeps every entry and reason', () => {
    const m = new ThreatMatcher(4);
    for (let i = 0; i < 5000; i++) m.add(i % 2 ? 'domain' : 'url', `k${i}`, i % 3 === 0 ? 'malware' : 'blocklisted URL');
    expect(m.size).toBe(5000);
    for (let i = 0; i < 5000; i++) expect(m.lookup(i % 2 ? 'domain' : 'url', `k${i}`)).toBe(i % 3 === 0 ? 'malware' : 'blocklisted URL');
    expect(m.lookup('url', 'k1')).toBeNull();
    expect(m.lookup('domain', 'k5000')).toBeNull();
  });

  it('counts a repeated entry once and keeps its first reason', () => {
    const m = new ThreatMatcher();
    m.add('domain', 'evil.test', 'blocklisted domain');
    m.add('domain', 'evil.test', 'malware');
    expect(m.size).toBe(1);
    expect(m.lookup('domain', 'evil.test')).toBe('blocklisted domain');
  });
});
