import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService, scanKeys } from '@dl/platform/redis';

/*
 * Each webhook has a lane in Redis: a sorted set of its pending delivery ids scored by the time
 * they are due (now for a new delivery, the backoff for a retry, a lease while being sent), and a
 * hash of what to send (event id, body, attempts made). One `webhook.drain` job per webhook at a
 * time (the `drain` marker) takes the due deliveries in batches through the gate below, so a
 * batch costs one BullMQ job turn and two scripts instead of one job and two scripts per delivery.
 * Everything runs on Redis' clock and is shared by every worker instance.
 */

/**
 * New deliveries into their webhooks' lanes (KEYS: lane, items, drain per delivery; ARGV:
 * markerTtl, then id and item per delivery). A delivery already in its lane (a replayed event)
 * keeps its state. Returns 1 for each delivery whose webhook had no drain job (the caller queues
 * one), else 0.
 */
const ENQUEUE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local out = {}
for i = 1, #KEYS / 3 do
  local lane, items, drain = KEYS[3 * i - 2], KEYS[3 * i - 1], KEYS[3 * i]
  local id, item = ARGV[2 * i], ARGV[2 * i + 1]
  redis.call('HSETNX', items, id, item)
  redis.call('ZADD', lane, 'NX', now, id)
  if redis.call('SET', drain, '1', 'NX', 'PX', ttl) then out[i] = 1 else out[i] = 0 end
end
return out
`;

/**
 * Claims the due deliveries of a webhook that the gate lets go now (KEYS: starts, lane, items,
 * infl, drain, org infl; ARGV: window, limit, whCap, orgCap, ttl, lease, maxBatch, markerTtl).
 * At most `limit` attempts of the webhook in the window (strict sliding log: an attempt counts from
 * its start until `window` ms after it completes, so the receiver can never observe more than
 * `limit` in any window, whatever the latencies), and room in flight for the webhook and its
 * organization. Claimed deliveries are leased (a crashed worker's come back when the lease ends).
 * Returns {-1} when the lane is empty (the drain marker is dropped: the job ends), {waitMs} when
 * nothing may go now, or {0, id, item, token, ...}.
 */
const CLAIM = `
local starts, lane, items, infl, drain, oinfl = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local window, limit, whCap, orgCap = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ttl, lease, maxBatch, markerTtl = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', starts, '-inf', now - window)
redis.call('ZREMRANGEBYSCORE', infl, '-inf', now)
redis.call('ZREMRANGEBYSCORE', oinfl, '-inf', now)
local used = redis.call('ZCARD', starts)
-- A backlog goes in whole batches: wait until the window has room for a full one rather than
-- sending the few slots that free first (each batch costs a wake-up; the rate is the same).
local want = math.min(limit, whCap, orgCap, maxBatch, redis.call('ZCOUNT', lane, '-inf', now))
if want > 0 and limit - used < want then
  local s = tonumber(redis.call('ZRANGE', starts, used - (limit - want) - 1, used - (limit - want) - 1, 'WITHSCORES')[2])
  local wait = 50
  if s <= now then wait = s + window - now + 1 end
  redis.call('SET', drain, '1', 'PX', wait + markerTtl)
  return {wait}
end
local room = math.min(limit - used, whCap - redis.call('ZCARD', infl), orgCap - redis.call('ZCARD', oinfl), maxBatch)
local due = redis.call('ZRANGEBYSCORE', lane, '-inf', now, 'LIMIT', 0, math.max(room, 1))
if #due == 0 then
  local first = redis.call('ZRANGE', lane, 0, 0, 'WITHSCORES')
  if #first == 0 then
    redis.call('DEL', drain)
    return {-1}
  end
  local wait = math.max(tonumber(first[2]) - now, 1)
  redis.call('SET', drain, '1', 'PX', wait + markerTtl)
  return {wait}
end
if room <= 0 then
  local wait = 50
  if redis.call('ZCARD', starts) >= limit then
    local oldest = tonumber(redis.call('ZRANGE', starts, 0, 0, 'WITHSCORES')[2])
    if oldest <= now then wait = oldest + window - now + 1 end
  end
  redis.call('SET', drain, '1', 'PX', wait + markerTtl)
  return {wait}
end
redis.call('SET', drain, '1', 'PX', markerTtl)
local out = {0}
for _, id in ipairs(due) do
  local token = id .. ':' .. now
  redis.call('ZADD', lane, now + lease, id)
  redis.call('ZADD', starts, now + ttl, token)
  redis.call('ZADD', infl, now + ttl, token)
  redis.call('ZADD', oinfl, now + ttl, token)
  out[#out + 1] = id
  out[#out + 1] = redis.call('HGET', items, id) or ''
  out[#out + 1] = token
end
redis.call('PEXPIRE', starts, ttl + window)
redis.call('PEXPIRE', infl, ttl + 1000)
redis.call('PEXPIRE', oinfl, ttl + 1000)
return out
`;

/**
 * Attempts are over (KEYS: starts, lane, items, infl, org infl; ARGV: token, id, delay, item, ago
 * per delivery): each leaves the in-flight sets and stays in the window from its completion (`ago`
 * ms before now: its log was written meanwhile); a settled delivery leaves the lane (delay < 0), a
 * retry is due again after `delay` ms with its new item.
 */
const SETTLE = `
local starts, lane, items, infl, oinfl = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i = 1, #ARGV, 5 do
  local token, id, delay, item, ago = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), ARGV[i + 3], tonumber(ARGV[i + 4])
  redis.call('ZADD', starts, 'XX', now - ago, token)
  redis.call('ZREM', infl, token)
  redis.call('ZREM', oinfl, token)
  if delay < 0 then
    redis.call('ZREM', lane, id)
    redis.call('HDEL', items, id)
  else
    redis.call('ZADD', lane, now + delay, id)
    redis.call('HSET', items, id, item)
  end
end
return 1
`;

/** What a lane holds for one delivery (JSON in the webhook's `items` hash). */
export interface LaneItem {
  /** Event id, sent as `webhook-id` on every attempt. */
  e: string;
  /** The exact body (signed as is). */
  b: string;
  /** Attempts made so far. */
  a: number;
  /** A test delivery: sent even to a disabled webhook. */
  t?: 1;
}

export interface ClaimedDelivery {
  deliveryId: string;
  /** Null when the lane lost its item (the delivery is dropped from the lane). */
  item: LaneItem | null;
  token: string;
}

export type Claim = { done: true } | { done: false; waitMs: number; deliveries: ClaimedDelivery[] };

export interface Settlement {
  token: string;
  deliveryId: string;
  /** Null: settled (leaves the lane); else due again after `retryInMs` with this item. */
  retry: { inMs: number; item: LaneItem } | null;
  /** When the attempt completed (performance.now()); the window counts from there. */
  completedAt: number;
}

/**
 * A lane left without a drain job (KEYS: lane, drain; ARGV: markerTtl): when it holds deliveries
 * and no drain marker, takes the marker (only one sweeper wins) and returns 1 (the caller queues
 * a drain job), else 0.
 */
const ADOPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[2], '1', 'NX', 'PX', tonumber(ARGV[1]))
return 1
`;

/**
 * Per-webhook lanes and delivery rate (WEBHOOK_MAX_PER_SECOND, shared across worker instances),
 * with in-flight caps per webhook and per organization, so one slow or dead endpoint holds a few
 * connections at most and never delays other tenants.
 */
@Injectable()
export class WebhookRateGate {
  readonly windowMs = 1000;
  /** An attempt's in-flight mark outlives its timeout; a crashed worker's marks expire. */
  private readonly inFlightTtl: number;
  /** A claimed delivery comes back to its lane after this (its worker crashed mid-attempt). */
  private readonly leaseMs: number;
  /** The drain marker outlives a crashed worker's job until BullMQ has re-run it as stalled. */
  readonly markerTtlMs = 180_000;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.inFlightTtl = config.WEBHOOK_TIMEOUT_MS + 5000;
    this.leaseMs = this.inFlightTtl + 30_000;
    if (!('webhookLaneClaim' in redis.client)) {
      redis.client.defineCommand('webhookLaneEnqueue', { lua: ENQUEUE });
      redis.client.defineCommand('webhookLaneClaim', { numberOfKeys: 6, lua: CLAIM });
      redis.client.defineCommand('webhookLaneSettle', { numberOfKeys: 5, lua: SETTLE });
      redis.client.defineCommand('webhookLaneAdopt', { numberOfKeys: 2, lua: ADOPT });
    }
  }

  /**
   * A webhook's lane keys and its organization's in-flight set: one Lua script touches them
   * together, so in cluster mode they share the organization's hash tag (one slot per organization).
   */
  private keys(webhookId: string, organizationId: string) {
    const k = (part: string) => this.redis.slotKey(organizationId, 'wh', webhookId, part);
    return {
      starts: k('starts'),
      lane: k('lane'),
      items: k('items'),
      infl: k('inflight'),
      drain: k('drain'),
      oinfl: this.redis.slotKey(organizationId, 'whorg', organizationId, 'inflight'),
    };
  }

  /** Adds deliveries to their lanes; returns, per delivery, whether its webhook needs a drain job queued. */
  async enqueue(organizationId: string, items: Array<{ webhookId: string; deliveryId: string; item: LaneItem }>): Promise<boolean[]> {
    if (!items.length) return [];
    const keys = items.flatMap(({ webhookId }) => {
      const k = this.keys(webhookId, organizationId);
      return [k.lane, k.items, k.drain];
    });
    const args = items.flatMap((i) => [i.deliveryId, JSON.stringify(i.item)]);
    const out = await this.commands().webhookLaneEnqueue(keys.length, ...keys, this.markerTtlMs, ...args);
    return out.map((n) => n === 1);
  }

  /** Drops drain markers (their job could not be queued), so the next delivery queues one again. */
  async disown(organizationId: string, webhookIds: string[]): Promise<void> {
    if (webhookIds.length) await this.redis.client.del(...webhookIds.map((id) => this.keys(id, organizationId).drain));
  }

  /** The webhook's due deliveries that may be attempted now (at most `maxBatch`). */
  async claim(webhookId: string, organizationId: string, maxBatch: number): Promise<Claim> {
    const k = this.keys(webhookId, organizationId);
    const out = await this.commands().webhookLaneClaim(
      k.starts,
      k.lane,
      k.items,
      k.infl,
      k.drain,
      k.oinfl,
      this.windowMs,
      this.config.WEBHOOK_MAX_PER_SECOND,
      this.config.WEBHOOK_MAX_IN_FLIGHT,
      this.config.WEBHOOK_ORG_MAX_IN_FLIGHT,
      this.inFlightTtl,
      this.leaseMs,
      maxBatch,
      this.markerTtlMs,
    );
    const head = Number(out[0]);
    if (head < 0) return { done: true };
    if (head > 0) return { done: false, waitMs: head, deliveries: [] };
    const deliveries: ClaimedDelivery[] = [];
    for (let i = 1; i < out.length; i += 3) {
      const raw = String(out[i + 1]);
      deliveries.push({ deliveryId: String(out[i]), item: raw ? (JSON.parse(raw) as LaneItem) : null, token: String(out[i + 2]) });
    }
    return { done: false, waitMs: 0, deliveries };
  }

  /** Ends attempts (in-flight marks released, window kept) and settles or re-schedules their deliveries. */
  async settle(webhookId: string, organizationId: string, settlements: Settlement[]): Promise<void> {
    if (!settlements.length) return;
    const k = this.keys(webhookId, organizationId);
    const now = performance.now();
    const args = settlements.flatMap((s) => [
      s.token,
      s.deliveryId,
      s.retry ? String(s.retry.inMs) : '-1',
      s.retry ? JSON.stringify(s.retry.item) : '',
      String(Math.max(0, Math.floor(now - s.completedAt))),
    ]);
    await this.commands().webhookLaneSettle(k.starts, k.lane, k.items, k.infl, k.oinfl, ...args);
  }

  /**
   * Webhook ids of lanes that hold deliveries but have no drain job any more (its marker expired:
   * the job failed for good or was lost with Redis' data), each now marked as drained again so
   * the caller queues exactly one drain job per lane. Scans every lane (SCAN, no blocking).
   */
  async adoptOrphanedLanes(): Promise<Array<{ webhookId: string; organizationId: string }>> {
    // One server: `prefix:wh:<webhook>:lane`; cluster: `prefix:{<organization>}:wh:<webhook>:lane`.
    const pattern = this.redis.cluster ? `${this.redis.prefix}:{*}:wh:*:lane` : this.redis.key('wh', '*', 'lane');
    const adopted: Array<{ webhookId: string; organizationId: string }> = [];
    await scanKeys(this.redis.client, pattern, async (keys) => {
      for (const lane of keys) {
        const parts = lane.slice(this.redis.prefix.length + 1).split(':');
        const organizationId = this.redis.cluster ? parts[0].slice(1, -1) : '';
        const webhookId = parts[parts.length - 2];
        const drain = this.keys(webhookId, organizationId).drain;
        if ((await this.commands().webhookLaneAdopt(lane, drain, this.markerTtlMs)) === 1) adopted.push({ webhookId, organizationId });
      }
    });
    return adopted;
  }

  private commands(): LaneCommands {
    return this.redis.client as unknown as LaneCommands;
  }
}

interface LaneCommands {
  webhookLaneEnqueue(...args: Array<string | number>): Promise<number[]>;
  webhookLaneClaim(...args: Array<string | number>): Promise<Array<string | number>>;
  webhookLaneSettle(...args: string[]): Promise<number>;
  webhookLaneAdopt(lane: string, drain: string, ttl: number): Promise<number>;
}
