import { Inject, Injectable } from '@nestjs/common';
import { withTimeout } from '@dl/platform/async';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService } from '@dl/platform/redis';

export const AUTH_IP_WINDOW_MS = 60_000;
const REDIS_TIMEOUT_MS = 250;

export interface AuthIpLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window of this IP ends. */
  reset: number;
  /** Seconds until this IP's next attempt is admitted (rounded up). */
  retryAfter: number;
}

/**
 * One atomic step of a fixed one-minute window per IP: count the attempt, start the
 * window on the first one, answer the count and the time left. The window is never
 * extended by refused attempts, so "retry after the time left" is always true.
 */
const FIXED_WINDOW_LUA = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type FixedWindowRedis = { dlAuthIpWindow(key: string, windowMs: number): Promise<[number, number]> };

/**
 * Attempts at `/auth/login`, `/auth/signup` and `/auth/accept-invite` per client IP
 * (decisions §14: AUTH_RATE_LIMIT_PER_MINUTE, 20), one counter shared by every api
 * instance through Redis. When Redis cannot answer within 250 ms the same window is
 * kept in this process, so the limit degrades to per-instance rather than vanishing.
 */
@Injectable()
export class AuthIpLimiter {
  readonly limit: number;
  readonly enabled: boolean;
  private readonly local = new Map<string, { count: number; endsAt: number }>();
  private defined = false;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.AUTH_RATE_LIMIT_PER_MINUTE;
    this.enabled = config.RATE_LIMIT_ENABLED;
  }

  async consume(ip: string): Promise<AuthIpLimitResult> {
    const now = Date.now();
    if (this.redis.isReady) {
      try {
        const [count, ttl] = await withTimeout(this.script().dlAuthIpWindow(this.redis.key('auth', 'ip', ip), AUTH_IP_WINDOW_MS), REDIS_TIMEOUT_MS);
        return this.result(Number(count), now + Number(ttl), now);
      } catch {
        // fall through to the local window
      }
    }
    return this.consumeLocal(ip, now);
  }

  private script(): FixedWindowRedis {
    if (!this.defined) {
      this.redis.client.defineCommand('dlAuthIpWindow', { numberOfKeys: 1, lua: FIXED_WINDOW_LUA });
      this.defined = true;
    }
    return this.redis.client as unknown as FixedWindowRedis;
  }

  private consumeLocal(ip: string, now: number): AuthIpLimitResult {
    let entry = this.local.get(ip);
    if (!entry || entry.endsAt <= now) {
      entry = { count: 0, endsAt: now + AUTH_IP_WINDOW_MS };
      this.local.set(ip, entry);
    }
    entry.count++;
    if (this.local.size > 10_000) for (const [k, e] of this.local) if (e.endsAt <= now) this.local.delete(k);
    return this.result(entry.count, entry.endsAt, now);
  }

  private result(count: number, endsAt: number, now: number): AuthIpLimitResult {
    return {
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      reset: Math.ceil(endsAt / 1000),
      retryAfter: Math.max(1, Math.ceil((endsAt - now) / 1000)),
    };
  }
}
