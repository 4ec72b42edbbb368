import { RedisService } from '@dl/platform/redis';
import { createTestEnv, TestEnv } from '@dl/testing';
import { PlansService } from './plans';
import { Principal } from './principal';
import { RateLimiter } from './rate-limiter.service';

const ORG = '11111111-1111-4111-8111-111111111111';
const USER = '22222222-2222-4222-8222-222222222222';
const OTHER_USER = '33333333-3333-4333-8333-333333333333';

function principal(kind: Principal['kind'], userId = USER): Principal {
  return { kind, userId, organizationId: ORG, role: 'OWNER', tier: 'FREE', ...(kind === 'apiKey' ? { apiKeyId: 'k' } : {}) };
}

describe(RateLimiter.name, () => {
  let env: TestEnv;
  let redis: RedisService;
  let limiter: RateLimiter;

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_REDIS_TIMEOUT_MS: '5000', DASHBOARD_RATE_LIMIT_PER_MINUTE: '25' });
    redis = new RedisService(env.config);
    await redis.onModuleInit();
    limiter = new RateLimiter(redis, new PlansService(env.config), env.config);
    await limiter.onModuleInit();
  });
  afterAll(async () => {
    limiter?.onModuleDestroy();
    redis?.client.disconnect();
    await env?.teardown();
  });

  async function admitted(p: Principal, n: number): Promise<number> {
    const results = await Promise.all(Array.from({ length: n }, () => limiter.consume(p)));
    return results.filter((r) => r.allowed).length;
  }

  it("dashboard sessions have their own budget per user and organization; API keys keep the plan's", async () => {
    // FREE: 10 API requests a minute. The keys' window fills up...
    expect(await admitted(principal('apiKey'), 12)).toBe(10);
    const refused = await limiter.consume(principal('apiKey'));
    expect(refused).toMatchObject({ allowed: false, limit: 10, remaining: 0, store: 'redis' });
    // ...and the same organization's dashboard still has its whole budget, per user.
    const first = await limiter.consume(principal('session'));
    expect(first).toMatchObject({ allowed: true, limit: 25, remaining: 24, store: 'redis' });
    expect(await admitted(principal('session'), 30)).toBe(24);
    expect(await limiter.consume(principal('session'))).toMatchObject({ allowed: false, limit: 25, remaining: 0 });
    expect(await limiter.consume(principal('session', OTHER_USER))).toMatchObject({ allowed: true, limit: 25, remaining: 24 });
    // The full dashboard window did not take anything from the keys' (still full, nothing more).
    expect(await limiter.consume(principal('apiKey'))).toMatchObject({ allowed: false, limit: 10 });
  });

  it('the windows live under separate Redis keys', () => {
    expect(limiter.windowOf(principal('apiKey')).key).toBe(redis.key('rl', ORG));
    expect(limiter.windowOf(principal('session')).key).toBe(redis.key('rl', 's', ORG, USER));
  });
});
