import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { withTimeout } from '@dl/platform/async';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService, whenReady } from '@dl/platform/redis';
import { PlansService } from './plans';
import { Principal } from './principal';

export const RATE_LIMIT_WINDOW_MS = 60_000;

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
 * Atomic sliding-window log for `n` requests of one organization at once (concurrent
 * requests of one event-loop turn share one call): drop entries older than the window,
 * count, add as many of the n requests as fit under the limit (members `<prefix>:<i>`).
 * The time comes from Redis so every api instance agrees on the window whatever their
 * clocks say. The requests are decided in order, exactly as n calls one after the other.
 * Returns {admitted, countBefore, oldestMs, nowMs, admitAtMs}: admitAtMs is when the next request
 * would be admitted, the time at which enough entries have left the window for the count to be
 * under the limit (more than one when the window holds more than the limit, e.g. after a downgrade).
 */
const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local prefix = ARGV[3]
local n = tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local before = redis.call('ZCARD', key)
local admitted = math.max(0, math.min(n, limit - before))
if admitted > 0 then
  local args = {}
  for i = 1, admitted do
    args[2 * i - 1] = now
    args[2 * i] = prefix .. ':' .. i
  end
  redis.call('ZADD', key, unpack(args))
end
redis.call('PEXPIRE', key, window)
local first = now
if before > 0 then first = tonumber(redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')[2]) end
local count = before + admitted
local admitAt = now
if count >= limit then
  local idx = count - limit
  admitAt = tonumber(redis.call('ZRANGE', key, idx, idx, 'WITHSCORES')[2]) + window
end
return {admitted, before, first, now, admitAt}
`;

/** Requests of one organization and limit waiting for the next script call. */
interface Batch {
  key: string;
  limit: number;
  waiters: Array<{ resolve(r: RateLimitResult): void }>;
}

/** An organization known to be at its limit until `untilLocalMs` (no entry can leave its window before then). */
interface Full {
  untilLocalMs: number;
  resetMs: number;
  /** Redis time at which a request would be admitted again. */
  admitMs: number;
  /** Redis clock minus this process's clock, at most (measured when the call was sent). */
  offsetMs: number;
}

type SlidingWindowRedis = {
  dlSlidingWindow(key: string, limit: number, windowMs: number, prefix: string, n: number): Promise<[number, number, number, number, number]>;
};

/**
 * Requests per minute per organization and plan (decisions §5) for API keys, and per user and
 * organization for dashboard sessions (decisions §20), one counter shared
 * by every api instance. If Redis cannot answer within RATE_LIMIT_REDIS_TIMEOUT_MS (250 ms) the limiter degrades
 * to the same window kept in this process: never a 500.
 *
 * Cost: the requests of one organization that arrive in the same event-loop turn share one
 * script call (one timer, one reply; the script decides them in order), and once Redis has
 * said an organization is at its limit, this process refuses its requests itself until the
 * oldest counted request leaves the window (no slot can free before that: refused requests
 * are not counted, and entries only leave by age). Both keep the counter exact and shared.
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  private readonly local = new Map<string, number[]>();
  private readonly batches = new Map<string, Batch>();
  private flushScheduled = false;
  private readonly full = new Map<string, Full>();
  private degradedSince?: number;
  readonly enabled: boolean;
  /** The sliding window: a minute (RATE_LIMIT_WINDOW_MS changes it in tests). */
  readonly windowMs: number;
  /** How long a request waits for Redis before this process counts alone (RATE_LIMIT_REDIS_TIMEOUT_MS). */
  private readonly redisTimeoutMs: number;
  /** The budget of one user's dashboard sessions in one organization (decisions §20). */
  private readonly sessionLimit: number;
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
    this.windowMs = config.RATE_LIMIT_WINDOW_MS ?? RATE_LIMIT_WINDOW_MS;
    this.redisTimeoutMs = config.RATE_LIMIT_REDIS_TIMEOUT_MS ?? 250;
    this.sessionLimit = config.DASHBOARD_RATE_LIMIT_PER_MINUTE ?? 300;
    if (this.enabled) {
      this.client = redis.duplicate({ enableAutoPipelining: true });
      this.client.defineCommand('dlSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    }
  }

  /** Waits (at most 2 s) for the connection so the first requests share the counter; never fails boot. */
  async onModuleInit(): Promise<void> {
    if (this.client) await whenReady(this.client, 2000);
  }

  onModuleDestroy(): void {
    this.client?.disconnect();
  }

  /**
   * Which window a request counts in (decisions §20): API keys share their organization's plan
   * limit; dashboard sessions (JWT) have their own budget per user and organization.
   */
  windowOf(principal: Principal): { key: string; limit: number } {
    if (principal.kind === 'session') {
      return { key: this.redis.key('rl', 's', principal.organizationId, principal.userId), limit: this.sessionLimit };
    }
    return { key: this.redis.key('rl', principal.organizationId), limit: this.plans.limits(principal.tier).requestsPerMinute };
  }

  async consume(principal: Principal): Promise<RateLimitResult> {
    const { key, limit } = this.windowOf(principal);
    if (this.client?.status === 'ready') {
      const batchKey = `${key}|${limit}`;
      const full = this.full.get(batchKey);
      if (full) {
        const nowLocal = Date.now();
        if (nowLocal < full.untilLocalMs) {
          return rateLimitResult(false, limit, limit, full.resetMs - this.windowMs, nowLocal + full.offsetMs, 'redis', this.windowMs, full.admitMs);
        }
        this.full.delete(batchKey);
      }
      return new Promise<RateLimitResult>((resolve) => {
        let batch = this.batches.get(batchKey);
        if (!batch) {
          batch = { key, limit, waiters: [] };
          this.batches.set(batchKey, batch);
        }
        batch.waiters.push({ resolve });
        if (!this.flushScheduled) {
          this.flushScheduled = true;
          setImmediate(() => this.flush());
        }
      });
    }
    this.degrade('not connected');
    return this.consumeLocal(key, limit);
  }

  /** One script call per organization for the requests of this turn. */
  private flush(): void {
    this.flushScheduled = false;
    const batches = [...this.batches.entries()];
    this.batches.clear();
    for (const [batchKey, batch] of batches) void this.run(batchKey, batch);
  }

  private async run(batchKey: string, { key, limit, waiters }: Batch): Promise<void> {
    const n = waiters.length;
    try {
      this.sequence = (this.sequence + 1) % 1e9;
      const prefix = `${this.instance}:${this.sequence}`;
      const sentAt = Date.now();
      const call = (this.client as unknown as SlidingWindowRedis).dlSlidingWindow(key, limit, this.windowMs, prefix, n);
      const [admitted, before, first, now, admitAt] = await withTimeout(call, this.redisTimeoutMs);
      if (this.degradedSince !== undefined) {
        this.logger.log('Rate limiter back on Redis');
        this.degradedSince = undefined;
      }
      if (before + admitted >= limit) {
        // Full until enough entries leave; Redis time mapped to this clock as late as it can be.
        const offsetMs = now - sentAt;
        this.full.set(batchKey, { untilLocalMs: admitAt - offsetMs, resetMs: first + this.windowMs, admitMs: admitAt, offsetMs });
        if (this.full.size > 10_000) this.full.clear();
      }
      for (let i = 0; i < n; i++) {
        const allowed = i < admitted;
        waiters[i].resolve(rateLimitResult(allowed, limit, allowed ? before + i + 1 : before + admitted, first, now, 'redis', this.windowMs, admitAt));
      }
    } catch (err) {
      this.degrade(err);
      for (const w of waiters) w.resolve(this.consumeLocal(key, limit));
    }
  }

  private degrade(reason: unknown): void {
    if (this.degradedSince === undefined) {
      this.degradedSince = Date.now();
      this.logger.warn({ reason: String(reason) }, 'Redis unavailable: rate limiting per process until it returns');
    }
  }

  private consumeLocal(key: string, limit: number): RateLimitResult {
    const now = Date.now();
    const log = (this.local.get(key) ?? []).filter((t) => t > now - this.windowMs);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    this.local.set(key, log);
    if (this.local.size > 10_000) {
      for (const [k, l] of this.local) if (!l.length || l[l.length - 1] <= now - this.windowMs) this.local.delete(k);
    }
    const admitAt = log.length >= limit ? log[log.length - limit] + this.windowMs : now;
    return rateLimitResult(allowed, limit, log.length, log[0] ?? now, now, 'local', this.windowMs, admitAt);
  }
}

/**
 * `retryAfter` (decisions §14) is the time until a request would be admitted: when the
 * window holds more than the limit (after a downgrade), until enough entries have left,
 * not only the oldest. Rounded up, so waiting exactly that many seconds is enough.
 */
export function rateLimitResult(
  allowed: boolean,
  limit: number,
  count: number,
  firstMs: number,
  nowMs: number,
  store: 'redis' | 'local',
  windowMs: number = RATE_LIMIT_WINDOW_MS,
  admitAtMs: number = firstMs + windowMs,
): RateLimitResult {
  const resetMs = firstMs + windowMs;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - count),
    reset: Math.ceil(resetMs / 1000),
    retryAfter: Math.max(1, Math.ceil((Math.max(admitAtMs, resetMs) - nowMs) / 1000)),
    store,
  };
}
