import { Injectable } from '@nestjs/common';
import { withTimeout } from '@dl/platform/async';
import { TooManyRequestsError } from '@dl/platform/http';
import { RedisService } from '@dl/platform/redis';

/** Failed logins allowed per email in the window before 429. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
const REDIS_TIMEOUT_MS = 250;

/**
 * Slows password guessing: after 10 failed logins for one email within 15 minutes,
 * further attempts get 429 until the window passes; a success clears the count.
 * Shared by every api instance through Redis; without Redis logins are not throttled.
 */
@Injectable()
export class LoginThrottle {
  constructor(private readonly redis: RedisService) {}

  private key(email: string): string {
    return this.redis.key('auth', 'login-fail', email);
  }

  async assertAllowed(email: string): Promise<void> {
    if (!this.redis.isReady) return;
    try {
      const k = this.key(email);
      const [[, count], [, ttl]] = (await withTimeout(this.redis.client.multi().get(k).ttl(k).exec(), REDIS_TIMEOUT_MS)) as [
        [unknown, string | null],
        [unknown, number],
      ];
      if (Number(count ?? 0) >= LOGIN_MAX_FAILURES) throw new TooManyRequestsError(Math.max(1, ttl));
    } catch (err) {
      if (err instanceof TooManyRequestsError) throw err;
    }
  }

  async failed(email: string): Promise<void> {
    if (!this.redis.isReady) return;
    const k = this.key(email);
    await withTimeout(this.redis.client.multi().incr(k).expire(k, LOGIN_WINDOW_SECONDS, 'NX').exec(), REDIS_TIMEOUT_MS).catch(() => undefined);
  }

  async succeeded(email: string): Promise<void> {
    if (!this.redis.isReady) return;
    await withTimeout(this.redis.client.del(this.key(email)), REDIS_TIMEOUT_MS).catch(() => undefined);
  }
}
