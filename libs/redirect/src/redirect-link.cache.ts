import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { linkInvalidationChannel, RedisService, whenReady } from '@dl/platform/redis';
import { RedirectLinkSnapshot } from './redirect-link';
import { RedirectStore } from './redirect-store';
import { TtlCache } from './ttl-cache';

/** Tunables of the three-level lookup (process → Redis → Postgres). */
export const LOOKUP_LIMITS = {
  /** In-process entries; a snapshot is ~1 KB, so ~50 MB at most. */
  localCapacity: 50_000,
  /** Safety net only: pub/sub invalidation is what makes a change visible within 1 s. */
  localTtlMs: 15_000,
  localNegativeTtlMs: 2_000,
  redisTtlSeconds: 600,
  redisNegativeTtlSeconds: 10,
  /** A Redis cache read slower than this counts as a miss (Redis hung or down). */
  redisTimeoutMs: 250,
  /** A second invalidation this long after the first closes the read-before-commit race. */
  secondInvalidationMs: 300,
} as const;

const MISSING = '0';

/**
 * Finds the link behind a short code: an in-process cache in front of Redis in front
 * of Postgres, with negative caching, coalesced misses and pub/sub invalidation.
 * A hot link costs one Map lookup; with Redis down, misses go straight to Postgres.
 */
@Injectable()
export class RedirectLinkCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('LinkLookup');
  private readonly local = new TtlCache<RedirectLinkSnapshot | null>(LOOKUP_LIMITS.localCapacity);
  private readonly inFlight = new Map<string, Promise<RedirectLinkSnapshot | null>>();
  private cache!: Redis;
  private subscriber!: Redis;
  private channel!: string;
  private closed = false;
  /** Bumped by every invalidation: a load that started before one does not cache its result. */
  private epoch = 0;
  private subscribed: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: RedisService,
    private readonly store: RedirectStore,
  ) {}

  async onModuleInit(): Promise<void> {
    this.channel = linkInvalidationChannel(this.redis);
    this.cache = this.redis.duplicate({ commandTimeout: LOOKUP_LIMITS.redisTimeoutMs });
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('message', (channel: string, code: string) => {
      if (channel !== this.channel) return;
      if (code.startsWith('@')) for (const listener of this.listeners) listener(code);
      else this.invalidate(code);
    });
    // Every (re)connection subscribes again and forgets what it may have missed meanwhile.
    this.subscriber.on('ready', () => {
      this.epoch++;
      this.local.clear();
      this.subscribed = this.subscriber
        .subscribe(this.channel)
        .catch((err: unknown) => this.logger.warn({ err }, 'subscribe to link invalidations failed'));
    });
    await whenReady(this.subscriber, 2000);
    await this.subscribed;
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.subscriber?.disconnect();
    this.cache?.disconnect();
  }

  private readonly listeners: Array<(message: string) => void> = [];

  /** Other messages of the channel (`@…`: never a link key), e.g. the domain table's reload. */
  onMessage(listener: (message: string) => void): void {
    this.listeners.push(listener);
  }

  /** The link, or null for an unknown (or deleted) code. */
  find(shortCode: string): RedirectLinkSnapshot | null | Promise<RedirectLinkSnapshot | null> {
    const hit = this.local.get(shortCode);
    if (hit !== undefined) return hit;
    let pending = this.inFlight.get(shortCode);
    if (!pending) {
      pending = this.load(shortCode).finally(() => this.inFlight.delete(shortCode));
      this.inFlight.set(shortCode, pending);
    }
    return pending;
  }

  /** Drops a code from this process and from Redis (every instance does it on the message). */
  invalidate(shortCode: string): void {
    this.epoch++;
    this.local.delete(shortCode);
    this.inFlight.delete(shortCode);
    this.dropShared(shortCode);
    // A miss that read Postgres just before the change committed may store the old row
    // after the first drop: a second drop a moment later removes it.
    setTimeout(() => {
      if (this.closed) return;
      this.epoch++;
      this.local.delete(shortCode);
      this.dropShared(shortCode);
    }, LOOKUP_LIMITS.secondInvalidationMs).unref();
  }

  private dropShared(shortCode: string): void {
    if (this.cache.status === 'ready') this.cache.del(this.redisKey(shortCode)).catch(() => undefined);
  }

  private async load(shortCode: string): Promise<RedirectLinkSnapshot | null> {
    const epoch = this.epoch;
    const key = this.redisKey(shortCode);
    const shared = await this.readShared(key);
    if (shared !== undefined) {
      if (epoch === this.epoch) this.remember(shortCode, shared);
      return shared;
    }
    const link = await this.store.findLink(shortCode);
    if (epoch !== this.epoch) return link;
    this.remember(shortCode, link);
    if (this.cache.status === 'ready') {
      const write = link
        ? this.cache.set(key, JSON.stringify(link), 'EX', LOOKUP_LIMITS.redisTtlSeconds)
        : this.cache.set(key, MISSING, 'EX', LOOKUP_LIMITS.redisNegativeTtlSeconds);
      write.catch(() => undefined);
    }
    return link;
  }

  /** undefined = not in Redis (or Redis unavailable). */
  private async readShared(key: string): Promise<RedirectLinkSnapshot | null | undefined> {
    if (this.cache.status !== 'ready') return undefined;
    try {
      const raw = await this.cache.get(key);
      if (raw === null) return undefined;
      return raw === MISSING ? null : (JSON.parse(raw) as RedirectLinkSnapshot);
    } catch {
      return undefined;
    }
  }

  private remember(shortCode: string, link: RedirectLinkSnapshot | null): void {
    this.local.set(shortCode, link, link ? LOOKUP_LIMITS.localTtlMs : LOOKUP_LIMITS.localNegativeTtlMs);
  }

  private redisKey(shortCode: string): string {
    return this.redis.key('links', 'redirect', shortCode);
  }
}
