import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService } from '@dl/platform/redis';
import { withTimeout } from './timeout';
import { PlansService } from './plans';
import { Principal } from './principal';

export const RATE_LIMIT_WINDOW_MS = 60_000;
const REDIS_TIMEOUT_MS = 250;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the oldest counted request leaves the window. */
  reset: number;
  /** Seconds to wait before retrying (only meaningful when refused). */
  retryAfter: number;
  /** 'redis' (shared by every instance) or 'local' (Redis unreachable). */
  store: 'redis' | 'local';
}

/**
 * Atomic sliding-window log: drop entries older than the window, count, add this
 * request when under the limit. The time comes from Redis so every api instance
 * agrees on the window whatever their clocks say.
 * Returns {allowed, count, oldestMs, nowMs}.
 */
const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if count < limit then
  redis.call('ZADD', key, now, member)
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
local first = now
if oldest[2] then first = tonumber(oldest[2]) end
return {allowed, count, first, now}
`;

type SlidingWindowRedis = {
  dlSlidingWindow(key: string, limit: number, windowMs: number, member: string): Promise<[number, number, number, number]>;
};

/**
 * Requests per minute per organization and plan (decisions §5), one counter shared
 * by every api instance. If Redis cannot answer within 250 ms the limiter degrades
 * to the same window kept in this process: never a 500.
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  private readonly local = new Map<string, number[]>();
  private degradedSince?: number;
  readonly enabled: boolean;
  /**
   * Its own connection with auto-pipelining: the scripts of concurrent requests leave
   * in one write instead of one round trip each.
   */
  private readonly client?: Redis;

  constructor(
    private readonly redis: RedisService,
    private readonly plans: PlansService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.enabled = config.RATE_LIMIT_ENABLED;
    if (this.enabled) {
      this.client = redis.duplicate({ enableAutoPipelining: true });
      this.client.defineCommand('dlSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    }
  }

  /** Waits (at most 2 s) for the connection so the first requests share the counter; never fails boot. */
  async onModuleInit(): Promise<void> {
    const client = this.client;
    if (!client || client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 2000);
      timer.unref();
      function done() {
        clearTimeout(timer);
        client!.off('ready', done);
        resolve();
      }
      client.once('ready', done);
    });
  }

  onModuleDestroy(): void {
    this.client?.disconnect();
  }

  async consume(principal: Principal): Promise<RateLimitResult> {
    const limit = this.plans.limits(principal.tier).requestsPerMinute;
    const key = this.redis.key('rl', principal.organizationId);
    if (this.client?.status === 'ready') {
      try {
        const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % 1e9)}`;
        const call = (this.client as unknown as SlidingWindowRedis).dlSlidingWindow(key, limit, RATE_LIMIT_WINDOW_MS, member);
        const [allowed, count, first, now] = await withTimeout(call, REDIS_TIMEOUT_MS);
        if (this.degradedSince !== undefined) {
          this.logger.log('Rate limiter back on Redis');
          this.degradedSince = undefined;
        }
        return result(allowed === 1, limit, count, first, now, 'redis');
      } catch (err) {
        this.degrade(err);
      }
    } else {
      this.degrade('not connected');
    }
    return this.consumeLocal(key, limit);
  }

  private degrade(reason: unknown): void {
    if (this.degradedSince === undefined) {
      this.degradedSince = Date.now();
      this.logger.warn({ reason: String(reason) }, 'Redis unavailable: rate limiting per process until it returns');
    }
  }

  private consumeLocal(key: string, limit: number): RateLimitResult {
    const now = Date.now();
    const log = (this.local.get(key) ?? []).filter((t) => t > now - RATE_LIMIT_WINDOW_MS);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    this.local.set(key, log);
    if (this.local.size > 10_000) {
      for (const [k, l] of this.local) if (!l.length || l[l.length - 1] <= now - RATE_LIMIT_WINDOW_MS) this.local.delete(k);
    }
    return result(allowed, limit, log.length, log[0] ?? now, now, 'local');
  }
}

function result(allowed: boolean, limit: number, count: number, firstMs: number, nowMs: number, store: 'redis' | 'local'): RateLimitResult {
  const resetMs = firstMs + RATE_LIMIT_WINDOW_MS;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    reset: Math.ceil(resetMs / 1000),
    retryAfter: Math.max(1, Math.ceil((resetMs - nowMs) / 1000)),
    store,
  };
}
