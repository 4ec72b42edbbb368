import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { RedisService, whenReady } from '@dl/platform/redis';
import { RedirectLinkSnapshot } from './redirect-link';
import { RedirectStore } from './redirect-store';

/**
 * Admits one click when the count is under the cap (atomic: the check and the INCR are one
 * script, so any number of redirect instances admit exactly `maxClicks`). -1 = the key is
 * missing (Redis lost it, or first visit): the caller rebuilds it from Postgres first.
 */
const ADMIT = `
local n = redis.call('GET', KEYS[1])
if not n then return -1 end
if tonumber(n) >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
return 1`;

/** Redis slower than this (or down) and the visit is let through (see docs/decisions.md). */
const REDIS_TIMEOUT_MS = 500;

type CapConnection = Redis & { dlAdmitClick(key: string, max: number): Promise<number> };

/**
 * Exact click caps (`maxClicks`, decisions §16): the edge counts non-bot clicks per link in
 * Redis. The count has no TTL (it outlives redirect restarts); when the key is missing it is
 * rebuilt from Postgres (non-bot clicks of the link) with SET NX, so concurrent rebuilds agree.
 * A link found exhausted is remembered on its snapshot: later visits cost no Redis trip until
 * the link changes (a new snapshot, e.g. a raised cap).
 */
@Injectable()
export class ClickCap implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('ClickCap');
  private conn!: CapConnection;
  private readonly exhausted = new WeakSet<RedirectLinkSnapshot>();
  private readonly rebuilding = new Map<string, Promise<void>>();
  private lastWarning = 0;

  constructor(
    private readonly redis: RedisService,
    private readonly store: RedirectStore,
  ) {}

  /** Waits (at most 2 s) for the connection: a visit before it is ready would be let through uncounted. */
  async onModuleInit(): Promise<void> {
    this.conn = this.redis.duplicate({ commandTimeout: REDIS_TIMEOUT_MS }) as CapConnection;
    this.conn.defineCommand('dlAdmitClick', { numberOfKeys: 1, lua: ADMIT });
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
   * takes one unit when one is left; an uncounted one (bot, HEAD) only looks.
   */
  async reached(link: RedirectLinkSnapshot, counted: boolean): Promise<boolean> {
    const max = link.maxClicks;
    if (max === null) return false;
    if (this.exhausted.has(link)) return true;
    const key = this.key(link.id);
    try {
      let result = counted ? await this.conn.dlAdmitClick(key, max) : await this.peek(key, max);
      if (result === -1) {
        await this.rebuild(link.id, key);
        result = counted ? await this.conn.dlAdmitClick(key, max) : await this.peek(key, max);
      }
      if (result === 0 || (!counted && result === -2)) {
        this.exhausted.add(link);
        return true;
      }
      return false;
    } catch (err) {
      this.warn(err);
      return false;
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

  private key(linkId: string): string {
    // One key per link (a single-key script: fine on Redis Cluster).
    return this.redis.key('links', 'clicks-used', linkId);
  }

  private warn(err: unknown): void {
    if (Date.now() - this.lastWarning < 10_000) return;
    this.lastWarning = Date.now();
    this.logger.warn({ err }, 'click cap unavailable (Redis): capped links are let through uncounted');
  }
}
