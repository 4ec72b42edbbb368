import { ConfigError, loadConfig } from './config';

describe(loadConfig.name, () => {
  const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/x' };

  it('applies defaults', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({ API_PORT: 3000, REDIRECT_PORT: 3001, INGEST_PORT: 3002, WORKER_PORT: 3003 });
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names a missing variable', () => {
    expect(() => loadConfig({})).toThrow(ConfigError);
    expect(() => loadConfig({})).toThrow(/DATABASE_URL is required/);
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({ ...base, REDIS_URL: 'http://nope', API_PORT: '70000', JWT_SECRET: 'short' });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).toMatch(/REDIS_URL must be a redis:\/\/ URL/);
      expect(problems).toMatch(/API_PORT/);
      expect(problems).toMatch(/JWT_SECRET must be at least 32 characters/);
    }
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required in production/);
  });

  it('parses numbers and booleans', () => {
    const config = loadConfig({ ...base, API_PORT: '4000', RATE_LIMIT_ENABLED: 'false' });
    expect(config.API_PORT).toBe(4000);
    expect(config.RATE_LIMIT_ENABLED).toBe(false);
  });

  it('validates DNS_SERVERS as a list of ip:port (branded-domain verification)', () => {
    expect(loadConfig({ ...base, DNS_SERVERS: '127.0.0.1:5353, [::1]:53,8.8.8.8' }).DNS_SERVERS).toBe('127.0.0.1:5353, [::1]:53,8.8.8.8');
    expect(loadConfig(base).DNS_SERVERS).toBeUndefined();
    for (const bad of ['dns.example.com:53', '127.0.0.1:99999', '127.0.0.1:', '300.1.1.1', '127.0.0.1;rm']) {
      expect(() => loadConfig({ ...base, DNS_SERVERS: bad })).toThrow(/DNS_SERVERS must be a comma-separated list of ip:port/);
    }
  });

  it('validates TLS_NEW_NAMES_PER_ORG_PER_DAY as a positive integer (default 20)', () => {
    expect(loadConfig(base).TLS_NEW_NAMES_PER_ORG_PER_DAY).toBe(20);
    expect(loadConfig({ ...base, TLS_NEW_NAMES_PER_ORG_PER_DAY: '5' }).TLS_NEW_NAMES_PER_ORG_PER_DAY).toBe(5);
    for (const bad of ['0', '-1', 'many', '2.5']) {
      expect(() => loadConfig({ ...base, TLS_NEW_NAMES_PER_ORG_PER_DAY: bad })).toThrow(/TLS_NEW_NAMES_PER_ORG_PER_DAY/);
    }
  });

  it('validates SSO_ALLOW_HTTP_HOSTS as a list of host:port (identity providers allowed on http)', () => {
    expect(loadConfig({ ...base, SSO_ALLOW_HTTP_HOSTS: '127.0.0.1:4000, idp.local:8080,[::1]:80' }).SSO_ALLOW_HTTP_HOSTS).toBe('127.0.0.1:4000, idp.local:8080,[::1]:80');
    expect(loadConfig(base).SSO_ALLOW_HTTP_HOSTS).toBeUndefined();
    for (const bad of ['idp.local', 'http://idp.local:80', '127.0.0.1:99999', 'idp.local:80;x']) {
      expect(() => loadConfig({ ...base, SSO_ALLOW_HTTP_HOSTS: bad })).toThrow(/SSO_ALLOW_HTTP_HOSTS must be a comma-separated list of host:port/);
    }
  });

  it('validates SERVICE_HOSTS as a list of host names', () => {
    expect(loadConfig({ ...base, SERVICE_HOSTS: 'dl.example.com, links.example.com' }).SERVICE_HOSTS).toBe('dl.example.com, links.example.com');
    expect(() => loadConfig({ ...base, SERVICE_HOSTS: 'https://x.example/' })).toThrow(/SERVICE_HOSTS/);
  });

  it('validates the trust-and-safety settings (decisions §22) at boot', () => {
    expect(loadConfig(base)).toMatchObject({
      AUTO_SUSPEND_BLOCKED_LINKS: 3,
      SAFE_BROWSING_API_BASE: 'https://safebrowsing.googleapis.com',
      SAFE_BROWSING_TIMEOUT_MS: 1500,
      // The contract's figures: the first-day cap, the certificate budget, a feed change seen well within 30 s.
      NEW_ORG_LINK_LIMIT: 50,
      TLS_NEW_NAMES_PER_ORG_PER_DAY: 20,
      THREAT_FEEDS_POLL_MS: 5000,
    });
    expect(loadConfig({ ...base, AUTO_SUSPEND_BLOCKED_LINKS: '5' }).AUTO_SUSPEND_BLOCKED_LINKS).toBe(5);
    for (const bad of ['0', '-1', 'three', '2.5']) expect(() => loadConfig({ ...base, AUTO_SUSPEND_BLOCKED_LINKS: bad })).toThrow(/AUTO_SUSPEND_BLOCKED_LINKS/);
    expect(() => loadConfig({ ...base, SAFE_BROWSING_API_BASE: 'not a url' })).toThrow(/SAFE_BROWSING_API_BASE/);
    expect(() => loadConfig({ ...base, SAFE_BROWSING_TIMEOUT_MS: '0' })).toThrow(/SAFE_BROWSING_TIMEOUT_MS/);
  });
});
