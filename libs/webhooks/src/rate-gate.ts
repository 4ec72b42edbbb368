import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService } from '@dl/platform/redis';

/**
 * One atomic step in Redis (shared by every worker instance, on Redis' own clock):
 * 1. A job without a reservation takes the next free slot of the webhook (slots are spaced
 *    `interval` apart); a future slot defers the job to it, so a burst of N jobs is re-queued
 *    once each, spread over time, instead of polling.
 * 2. At its slot, the job starts only if fewer than `limit` attempts of the webhook are in the
 *    window (strict sliding log) and the webhook and its organization have room in flight;
 *    otherwise it takes a new slot behind the queue.
 * An attempt stays in the log while in flight and for `window` ms after it completes (release
 * re-scores it at completion): the receiver sees a request between its start and its completion,
 * so it can never observe more than `limit` requests in any `window`, whatever the latencies.
 * Returns {1, 0} to go, {0, waitMs} to defer.
 */
const ACQUIRE = `
local starts, nextk, resv, infl, oinfl = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local window, limit, interval = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local whCap, orgCap, ttl, token = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', starts, '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', infl, '-inf', now)
redis.call('ZREMRANGEBYSCORE', oinfl, '-inf', now)
redis.call('ZREMRANGEBYSCORE', resv, '-inf', now - 120000)
local function reserve(earliest)
  local nxt = tonumber(redis.call('GET', nextk) or '0')
  local slot = math.max(earliest, nxt)
  redis.call('SET', nextk, slot + interval, 'PX', slot + interval - now + window)
  if slot > now then
    redis.call('ZADD', resv, slot, token)
    redis.call('PEXPIRE', resv, slot - now + 120000)
  end
  return slot
end
if redis.call('ZSCORE', resv, token) then
  redis.call('ZREM', resv, token)
else
  local slot = reserve(now)
  if slot > now then return {0, slot - now} end
end
local wait = 0
if redis.call('ZCARD', starts) >= limit then
  local oldest = tonumber(redis.call('ZRANGE', starts, 0, 0, 'WITHSCORES')[2])
  if oldest > now then wait = interval else wait = oldest + window - now + 1 end
elseif redis.call('ZCARD', infl) >= whCap or redis.call('ZCARD', oinfl) >= orgCap then
  wait = interval
end
if wait > 0 then
  local slot = reserve(now + wait)
  if slot <= now then slot = now + 1 end
  redis.call('ZADD', resv, slot, token)
  return {0, slot - now}
end
redis.call('ZADD', starts, now + ttl, token)
redis.call('PEXPIRE', starts, ttl + window)
redis.call('ZADD', infl, now + ttl, token)
redis.call('PEXPIRE', infl, ttl + 1000)
redis.call('ZADD', oinfl, now + ttl, token)
redis.call('PEXPIRE', oinfl, ttl + 1000)
return {1, 0}
`;

/** The attempt is over: it leaves the in-flight sets and stays in the window from now on. */
const RELEASE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now, ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`;

/**
 * Slots for new deliveries, taken at fan-out time (KEYS: next, resv per delivery; ARGV: window,
 * interval, tokens): each job is queued with a delay up to its slot and starts with its
 * reservation held, so a backlog is not picked up twice.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window, interval = tonumber(ARGV[1]), tonumber(ARGV[2])
local out = {}
for i = 3, #ARGV do
  local nextk, resv = KEYS[2 * (i - 2) - 1], KEYS[2 * (i - 2)]
  local nxt = tonumber(redis.call('GET', nextk) or '0')
  local slot = math.max(now, nxt)
  redis.call('SET', nextk, slot + interval, 'PX', slot + interval - now + window)
  redis.call('ZADD', resv, slot, ARGV[i])
  redis.call('PEXPIRE', resv, slot - now + 120000)
  out[#out + 1] = slot - now
end
return out
`;

export type GateDecision = { go: true } | { go: false; waitMs: number };

/**
 * Per-webhook delivery rate (WEBHOOK_MAX_PER_SECOND, shared across worker instances) and
 * in-flight caps per webhook and per organization, so one slow or dead endpoint holds a few
 * worker slots at most and never delays other tenants.
 */
@Injectable()
export class WebhookRateGate {
  readonly windowMs = 1000;
  private readonly interval: number;
  private readonly inFlightTtl: number;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.interval = Math.ceil(this.windowMs / config.WEBHOOK_MAX_PER_SECOND);
    // An in-flight mark outlives the attempt's timeout; a crashed worker's marks expire.
    this.inFlightTtl = config.WEBHOOK_TIMEOUT_MS + 5000;
    if (!('webhookGate' in redis.client)) {
      redis.client.defineCommand('webhookGate', { numberOfKeys: 5, lua: ACQUIRE });
      redis.client.defineCommand('webhookGateRelease', { numberOfKeys: 3, lua: RELEASE });
      redis.client.defineCommand('webhookGateReserve', { lua: RESERVE });
    }
  }

  private keys(webhookId: string, organizationId: string): string[] {
    return [
      this.redis.key('wh', webhookId, 'starts'),
      this.redis.key('wh', webhookId, 'next'),
      this.redis.key('wh', webhookId, 'resv'),
      this.redis.key('wh', webhookId, 'inflight'),
      this.redis.key('whorg', organizationId, 'inflight'),
    ];
  }

  async acquire(webhookId: string, organizationId: string, token: string): Promise<GateDecision> {
    const client = this.redis.client as unknown as GateCommands;
    const [go, wait] = await client.webhookGate(
      ...this.keys(webhookId, organizationId),
      this.windowMs,
      this.config.WEBHOOK_MAX_PER_SECOND,
      this.interval,
      this.config.WEBHOOK_MAX_IN_FLIGHT,
      this.config.WEBHOOK_ORG_MAX_IN_FLIGHT,
      this.inFlightTtl,
      token,
    );
    return go === 1 ? { go: true } : { go: false, waitMs: wait };
  }

  /** Reserves the next slot of each webhook for these deliveries; returns each one's delay in ms. */
  async reserve(organizationId: string, items: Array<{ webhookId: string; token: string }>): Promise<number[]> {
    if (!items.length) return [];
    const keys = items.flatMap(({ webhookId }) => {
      const [, next, resv] = this.keys(webhookId, organizationId);
      return [next, resv];
    });
    const client = this.redis.client as unknown as GateCommands;
    return client.webhookGateReserve(keys.length, ...keys, this.windowMs, this.interval, ...items.map((i) => i.token));
  }

  async release(webhookId: string, organizationId: string, token: string): Promise<void> {
    const [starts, , , infl, oinfl] = this.keys(webhookId, organizationId);
    await (this.redis.client as unknown as GateCommands).webhookGateRelease(starts, infl, oinfl, token);
  }
}

interface GateCommands {
  webhookGate(...args: Array<string | number>): Promise<[number, number]>;
  webhookGateRelease(...args: string[]): Promise<number>;
  webhookGateReserve(...args: Array<string | number>): Promise<number[]>;
}
