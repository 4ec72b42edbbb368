import { Inject, Injectable } from '@nestjs/common';
import { withTimeout } from '@dl/platform/async';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { TooManyRequestsError } from '@dl/platform/http';
import { RedisService } from '@dl/platform/redis';

/** Password checks allowed per email in the window before 429 (a success clears the count). */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

/**
 * Reserves one attempt atomically: INCR (the window starts at the first), and the attempt is
 * refused when it would be past the limit. Returns {count, ttl in seconds}.
 */
const RESERVE_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('TTL', KEYS[1])}
`;

type ReserveRedis = { dlLoginReserve(key: string, windowSeconds: number): Promise<[number, number]> };

/**
 * Slows password guessing (decisions §20): every password check for an email first reserves an
 * attempt in Redis (one atomic script), so a burst of parallel guesses gets at most 10 checks in
 * 15 minutes; the 11th and later answer 429 (even with the right password) until the window
 * passes. A success clears the count. Shared by every api instance; without Redis, or when it does
 * not answer within RATE_LIMIT_REDIS_TIMEOUT_MS as for the API limits, logins are not throttled
 * rather than refused.
 */
@Injectable()
export class LoginThrottle {
  private defined = false;
  private readonly redisTimeoutMs: number;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.redisTimeoutMs = config.RATE_LIMIT_REDIS_TIMEOUT_MS ?? 250;
  }

  private key(email: string): string {
    return this.redis.key('auth', 'login-fail', email);
  }

  /** Counts an attempt before the password is checked; 429 past the limit. */
  async reserve(email: string): Promise<void> {
    if (!this.redis.isReady) return;
    let result: [number, number];
    try {
      if (!this.defined) {
        this.redis.client.defineCommand('dlLoginReserve', { numberOfKeys: 1, lua: RESERVE_LUA });
        this.defined = true;
      }
      const call = (this.redis.client as unknown as ReserveRedis).dlLoginReserve(this.key(email), LOGIN_WINDOW_SECONDS);
      result = await withTimeout(call, this.redisTimeoutMs);
    } catch {
      return;
    }
    const [count, ttl] = result;
    if (count > LOGIN_MAX_FAILURES) throw new TooManyRequestsError(Math.max(1, ttl));
  }

  async succeeded(email: string): Promise<void> {
    if (!this.redis.isReady) return;
    await withTimeout(this.redis.client.del(this.key(email)), this.redisTimeoutMs).catch(() => undefined);
  }
}
