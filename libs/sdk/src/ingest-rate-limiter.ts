import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { TooManyRequestsError } from '@dl/platform/http';
import { IngestRedis } from './ingest-redis';

const WINDOW_MS = 60_000;

/**
 * Sliding window approximated by two fixed windows (the previous one weighted by how much
 * of it still overlaps the sliding window): one Redis round trip, two small keys per token.
 * Returns {allowed, used}.
 */
const SCRIPT = `
local limit = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local weight = tonumber(ARGV[3])
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
local prev = tonumber(redis.call('GET', KEYS[2]) or '0')
local carried = math.floor(prev * weight)
if carried + cur + cost > limit then
  return {0, carried + cur}
end
cur = redis.call('INCRBY', KEYS[1], cost)
if cur == cost then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return {1, carried + cur}
`;

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Unix seconds when the current window ends. */
  reset: number;
  headers: Record<string, string>;
}

type LimitCommand = (cur: string, prev: string, limit: number, cost: number, weight: string, ttl: number) => Promise<[number, number]>;

/** Per-token limit of SDK and pixel ingestion (`INGEST_RATE_LIMIT_PER_MINUTE`), with the API's headers. */
@Injectable()
export class IngestRateLimiter {
  private readonly logger = new Logger(IngestRateLimiter.name);
  readonly limit: number;

  constructor(
    private readonly redis: IngestRedis,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.INGEST_RATE_LIMIT_PER_MINUTE;
    this.redis.client.defineCommand('dlIngestLimit', { numberOfKeys: 2, lua: SCRIPT });
  }

  /**
   * Counts `cost` units for the token; throws TooManyRequestsError (429 with `retryAfter`)
   * when over the limit. When Redis is unreachable ingestion is not blocked (fail open).
   */
  async consume(subject: string, cost = 1, now = Date.now()): Promise<RateLimitResult> {
    const windowIndex = Math.floor(now / WINDOW_MS);
    const elapsed = (now % WINDOW_MS) / WINDOW_MS;
    const reset = Math.ceil(((windowIndex + 1) * WINDOW_MS) / 1000);
    let allowed = 1;
    let used = 0;
    try {
      const command = (this.redis.client as unknown as { dlIngestLimit: LimitCommand }).dlIngestLimit.bind(this.redis.client);
      [allowed, used] = await command(
        // Both windows in one script: one hash tag per token in cluster mode.
        this.redis.slotKey(`ingest:${subject}`, 'rl', 'ingest', subject, String(windowIndex)),
        this.redis.slotKey(`ingest:${subject}`, 'rl', 'ingest', subject, String(windowIndex - 1)),
        this.limit,
        cost,
        (1 - elapsed).toFixed(4),
        WINDOW_MS * 2,
      );
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'rate limiter unavailable, allowing the request');
    }
    const remaining = Math.max(0, this.limit - used);
    const headers = {
      'X-RateLimit-Limit': String(this.limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    };
    if (!allowed) {
      const retryAfter = Math.max(1, reset - Math.floor(now / 1000));
      throw new TooManyRequestsError(retryAfter, headers);
    }
    return { limit: this.limit, remaining, reset, headers };
  }
}
