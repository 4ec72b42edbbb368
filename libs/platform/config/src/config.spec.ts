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
});
