import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { isCluster, RedisService, whenReady } from '@dl/platform/redis';
import { RedirectLinkSnapshot } from './redirect-link';
import { RedirectStore } from './redirect-store';

/**
 * Admits one click per key when its count is under its cap (atomic: each check and INCR happen
 * in the script, key after key in order, so any number of redirect instances admit exactly
 * `maxClicks`). KEYS are the counters, ARGV their caps; per key 1 = admitted, 0 = the cap is
 * reached, -1 = the key is missing (Redis lost it, or first visit): the caller rebuilds it from
 * Postgres first.
 */
const ADMIT = `
local out = {}
for i = 1, #KEYS do
  local n = redis.call('GET', KEYS[i])
  if not n then out[i] = -1
  elseif tonumber(n) >= tonumber(ARGV[i]) then out[i] = 0
  else redis.call('INCR', KEYS[i]); out[i] = 1 end
end
return out`;

/** Most visits one ADMIT call takes (Redis runs a script alone: a bounded one stays short). */
const MAX_ADMITS_PER_CALL = 256;

/** Redis slower than this (or down) and the visit is let through (docs/decisions/redirect.md, "Caps fail open"). */
const REDIS_TIMEOUT_MS = 500;

type CapConnection = Redis & { dlAdmitClicks(numberOfKeys: number, ...keysThenCaps: Array<string | number>): Promise<number[]> };

interface PendingAdmit {
  key: string;
  max: number;
  resolve(result: number): void;
  reject(err: unknown): void;
}

/**
 * Exact click caps (`maxClicks`, decisions §16): the edge counts non-bot clicks per link in
 * Redis. The count has no TTL (it outlives redirect restarts); when the key is missing it is
 * rebuilt from Postgres (non-bot clicks of the link) with SET NX, so concurrent rebuilds agree.
 * A link found exhausted is remembered on its snapshot: later visits cost no Redis trip until
 * the link changes (a new snapshot, e.g. a raised cap).
 *
 * The counted visits read in one turn of the event loop are admitted by one script call
 * (ADMIT, sent from `setImmediate`): an ioredis command costs the edge about as much CPU as the
 * rest of a plain redirect, and under load a turn reads many visits. On Redis Cluster the
 * counters live in different slots, so each visit is its own call.
 */
@Injectable()
export class ClickCap implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ClickCap');
  private conn!: CapConnection;
  private readonly exhausted = new WeakSet<RedirectLinkSnapshot>();
  private readonly keys = new WeakMap<RedirectLinkSnapshot, string>();
  private readonly rebuilding = new Map<string, Promise<void>>();
  private lastWarning = 0;
  private pending: PendingAdmit[] = [];
  private batched = true;

  constructor(
    private readonly redis: RedisService,
    private readonly store: RedirectStore,
  ) {}

  /** Waits (at most 2 s) for the connection: a visit before it is ready would be let through uncounted. */
  async onModuleInit(): Promise<void> {
    this.conn = this.redis.duplicate({ commandTimeout: REDIS_TIMEOUT_MS }) as CapConnection;
    this.conn.defineCommand('dlAdmitClicks', { lua: ADMIT });
    this.batched = !isCluster(this.conn);
    await whenReady(this.conn, 2000);
  }

  onModuleDestroy(): void {
    this.conn?.disconnect();
  }

  /** Known to be used up (no I/O), or undefined when Redis must be asked. */
  knownReached(link: RedirectLinkSnapshot): true | undefined {
    return this.exhausted.has(link) ? true : undefined;
  }

  /**
   * Is the cap reached for this visit? A counted visit (a non-bot GET that would redirect)
   * takes one unit when one is left; an uncounted one (bot, HEAD) only looks. Not `async`: on the
   * edge's hot path a plain promise chain costs less than an async function's awaits and
   * resumptions (the key is made once per snapshot).
   */
  reached(link: RedirectLinkSnapshot, counted: boolean): Promise<boolean> {
    const max = link.maxClicks;
    if (max === null) return Promise.resolve(false);
    if (this.exhausted.has(link)) return Promise.resolve(true);
    const key = this.keyOf(link);
    const ask = () => (counted ? this.admit(key, max) : this.peek(key, max));
    return ask()
      .then((result) => (result === -1 ? this.rebuild(link.id, key).then(ask) : result))
      .then(
        (result) => {
          if (result === 0 || (!counted && result === -2)) {
            this.exhausted.add(link);
            return true;
          }
          return false;
        },
        (err: unknown) => {
          this.warn(err);
          return false;
        },
      );
  }

  /** ADMIT for one counted visit: 1 = admitted, 0 = the cap is reached, -1 = no key. */
  private admit(key: string, max: number): Promise<number> {
    if (!this.batched) return this.conn.dlAdmitClicks(1, key, max).then((results) => results[0]);
    return new Promise<number>((resolve, reject) => {
      if (this.pending.push({ key, max, resolve, reject }) === 1) setImmediate(() => this.sendAdmits());
    });
  }

  /** The visits queued since the last turn, in calls of at most MAX_ADMITS_PER_CALL. */
  private sendAdmits(): void {
    const queued = this.pending;
    this.pending = [];
    for (let from = 0; from < queued.length; from += MAX_ADMITS_PER_CALL) {
      const part = queued.slice(from, from + MAX_ADMITS_PER_CALL);
      const args = new Array<string | number>(part.length * 2);
      for (let i = 0; i < part.length; i++) {
        args[i] = part[i].key;
        args[part.length + i] = part[i].max;
      }
      this.conn.dlAdmitClicks(part.length, ...args).then(
        (results) => part.forEach((a, i) => a.resolve(results[i])),
        (err: unknown) => part.forEach((a) => a.reject(err)),
      );
    }
  }

  /** 1 = under the cap, -2 = at or over it, -1 = no key. */
  private async peek(key: string, max: number): Promise<number> {
    const n = await this.conn.get(key);
    if (n === null) return -1;
    return Number(n) >= max ? -2 : 1;
  }

  /** The count from Postgres, written only if no other instance wrote it meanwhile. */
  private rebuild(linkId: string, key: string): Promise<void> {
    let pending = this.rebuilding.get(linkId);
    if (!pending) {
      pending = this.store
        .countHumanClicks(linkId)
        .then(async (n) => {
          await this.conn.set(key, String(n), 'NX');
        })
        .finally(() => this.rebuilding.delete(linkId));
      this.rebuilding.set(linkId, pending);
    }
    return pending;
  }

  /** The link's counter key, made once per snapshot (one key per link: a single-key script is fine on Redis Cluster). */
  private keyOf(link: RedirectLinkSnapshot): string {
    let key = this.keys.get(link);
    if (key === undefined) {
      key = this.redis.key('links', 'clicks-used', link.id);
      this.keys.set(link, key);
    }
    return key;
  }

  private warn(err: unknown): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err }, 'click cap unavailable (Redis): capped links are let through uncounted');
  }
}
