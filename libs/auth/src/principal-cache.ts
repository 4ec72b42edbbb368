import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { withTimeout } from '@dl/platform/async';
import { RedisService } from '@dl/platform/redis';
import { Principal } from './principal';

/** What a credential resolved to: a principal, or why it is refused. */
export type CredentialState =
  | { status: 'ok'; principal: Principal }
  | { status: 'revoked'; organizationId: string }
  | { status: 'unknown' };

interface LocalEntry {
  value: CredentialState;
  expiresAt: number;
}

/** In-process entries live at most this long: the bound on revocation without pub/sub. */
export const LOCAL_TTL_MS = 1000;
/** Redis entries (shared by every api instance) live this long unless invalidated. */
export const SHARED_TTL_MS = 30_000;
/** An invalidated entry cannot be refilled for this long (a read racing the change cannot re-cache it). */
const TOMBSTONE_MS = 2000;
const REDIS_TIMEOUT_MS = 250;
const LOCAL_MAX_ENTRIES = 50_000;
const TOMBSTONE = '-';


/**
 * Credential → principal cache: in-process (≤ 1 s) in front of Redis (30 s) in front
 * of Postgres. Revocation, member and plan changes delete the Redis entries, leave a
 * short tombstone, and publish an invalidation that every instance applies to its
 * in-process entries at once; the 1 s local TTL bounds staleness even if a message is
 * lost. If Redis is unreachable lookups go to Postgres.
 */
@Injectable()
export class PrincipalCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PrincipalCache.name);
  private readonly local = new Map<string, LocalEntry>();
  private readonly inflight = new Map<string, Promise<CredentialState>>();
  private subscriber?: Redis;
  private readonly channel: string;

  constructor(private readonly redis: RedisService) {
    this.channel = redis.key('auth', 'invalidate');
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = await this.redis.subscribe(
      this.channel,
      (message) => this.applyInvalidation(message),
      () => this.logger.warn('Could not subscribe to credential invalidations yet; relying on the 1 s local TTL'),
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.subscriber?.disconnect();
  }

  /** The in-process entry of a credential if it is still fresh (≤ 1 s old, not invalidated): no Redis, no promise. */
  peek(cacheKey: string): CredentialState | undefined {
    const hit = this.local.get(cacheKey);
    return hit && hit.expiresAt > Date.now() ? hit.value : undefined;
  }

  /** Resolves a credential through the cache levels; `load` reads Postgres. */
  async get(cacheKey: string, load: () => Promise<CredentialState>): Promise<CredentialState> {
    const hit = this.local.get(cacheKey);
    if (hit && hit.expiresAt > Date.now()) return hit.value;
    const pending = this.inflight.get(cacheKey);
    if (pending) return pending;
    const p = this.resolve(cacheKey, load).finally(() => this.inflight.delete(cacheKey));
    this.inflight.set(cacheKey, p);
    return p;
  }

  private async resolve(cacheKey: string, load: () => Promise<CredentialState>): Promise<CredentialState> {
    const redisKey = this.redis.key('auth', 'c', cacheKey);
    let shared: string | null | undefined;
    if (this.redis.isReady) {
      try {
        shared = await withTimeout(this.redis.client.get(redisKey), REDIS_TIMEOUT_MS);
      } catch {
        shared = undefined;
      }
    }
    if (shared && shared !== TOMBSTONE) {
      try {
        const value = JSON.parse(shared) as CredentialState;
        this.setLocal(cacheKey, value);
        return value;
      } catch {
        // fall through to the database
      }
    }
    const value = await load();
    this.setLocal(cacheKey, value);
    if (shared !== TOMBSTONE && shared !== undefined && value.status !== 'unknown') {
      void this.fillShared(cacheKey, redisKey, value).catch(() => undefined);
    }
    return value;
  }

  private async fillShared(cacheKey: string, redisKey: string, value: CredentialState): Promise<void> {
    const org = value.status === 'ok' ? value.principal.organizationId : value.status === 'revoked' ? value.organizationId : null;
    // The entry and the organization's index are in different cluster slots: two writes, not one MULTI.
    const writes: Array<Promise<unknown>> = [this.redis.client.set(redisKey, JSON.stringify(value), 'PX', SHARED_TTL_MS, 'NX')];
    if (org) {
      const index = this.redis.key('auth', 'org', org);
      writes.push(this.redis.client.multi().sadd(index, cacheKey).pexpire(index, SHARED_TTL_MS * 2).exec());
    }
    await withTimeout(Promise.all(writes), REDIS_TIMEOUT_MS);
  }

  private setLocal(cacheKey: string, value: CredentialState): void {
    if (this.local.size >= LOCAL_MAX_ENTRIES) {
      const now = Date.now();
      for (const [k, e] of this.local) if (e.expiresAt <= now) this.local.delete(k);
      if (this.local.size >= LOCAL_MAX_ENTRIES) this.local.clear();
    }
    this.local.set(cacheKey, { value, expiresAt: Date.now() + LOCAL_TTL_MS });
  }

  /** Forgets credentials (e.g. a revoked key) on every instance. */
  async invalidateKeys(cacheKeys: string[]): Promise<void> {
    if (!cacheKeys.length) return;
    this.dropLocal({ keys: cacheKeys });
    await this.broadcast({ keys: cacheKeys });
  }

  /** Forgets every credential of an organization (member, role or plan change) on every instance. */
  async invalidateOrganization(organizationId: string): Promise<void> {
    this.dropLocal({ org: organizationId });
    await this.broadcast({ org: organizationId });
  }

  private async broadcast(message: { keys?: string[]; org?: string }): Promise<void> {
    try {
      let keys = message.keys ?? [];
      if (message.org) {
        const index = this.redis.key('auth', 'org', message.org);
        keys = [...keys, ...(await withTimeout(this.redis.client.smembers(index), REDIS_TIMEOUT_MS))];
        await withTimeout(this.redis.client.del(index), REDIS_TIMEOUT_MS);
      }
      if (keys.length) {
        // One SET per entry (each in its own cluster slot), sent together.
        await withTimeout(Promise.all(keys.map((k) => this.redis.client.set(this.redis.key('auth', 'c', k), TOMBSTONE, 'PX', TOMBSTONE_MS))), REDIS_TIMEOUT_MS);
      }
      await withTimeout(this.redis.client.publish(this.channel, JSON.stringify(message)), REDIS_TIMEOUT_MS);
    } catch (err) {
      // Other instances still drop the entry within the 1 s local TTL; shared entries are
      // not written while Redis is down.
      this.logger.warn({ err: String(err) }, 'Credential invalidation not broadcast (Redis unavailable)');
    }
  }

  private applyInvalidation(raw: string): void {
    try {
      this.dropLocal(JSON.parse(raw) as { keys?: string[]; org?: string });
    } catch {
      this.local.clear();
    }
  }

  private dropLocal(message: { keys?: string[]; org?: string }): void {
    for (const k of message.keys ?? []) this.local.delete(k);
    if (message.org) {
      for (const [k, e] of this.local) {
        const v = e.value;
        const org = v.status === 'ok' ? v.principal.organizationId : v.status === 'revoked' ? v.organizationId : null;
        if (org === message.org) this.local.delete(k);
      }
    }
  }
}
