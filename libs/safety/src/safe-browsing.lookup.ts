import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { withTimeout } from '@dl/platform/async';
import type { RedisService } from '@dl/platform/redis';
import { SafeBrowsingClient } from './safe-browsing.client';
import { ThreatReason } from './verdict';

/** Verdicts are kept this long (decisions §22: 30 min). */
export const SAFE_BROWSING_CACHE_SECONDS = 1800;
/** A cache read slower than this counts as a miss. */
const CACHE_TIMEOUT_MS = 250;
const CLEAN = '-';

/** Each URL's Safe Browsing verdict: its reason, null when not listed, undefined when it could not be asked. */
export type SafeBrowsingVerdicts = Map<string, ThreatReason | null | undefined>;

/**
 * Safe Browsing lookups behind a Redis cache shared by every process (30 min per URL, listed or
 * not). A lookup that fails leaves its URLs undefined: the caller accepts them and the worker
 * asks again later. Redis down: every URL is asked.
 */
export class SafeBrowsingLookup {
  private readonly logger = new Logger('SafeBrowsing');

  constructor(
    private readonly client: SafeBrowsingClient,
    private readonly redis: RedisService | undefined,
  ) {}

  private cacheKey(url: string): string {
    return this.redis!.key('safety', 'sb', createHash('sha256').update(url).digest('base64url'));
  }

  async verdicts(urls: readonly string[]): Promise<SafeBrowsingVerdicts> {
    const out: SafeBrowsingVerdicts = new Map();
    const unique = [...new Set(urls)];
    const cached = await this.readCache(unique);
    const misses = unique.filter((u) => {
      const hit = cached.get(u);
      if (hit === undefined) return true;
      out.set(u, hit === CLEAN ? null : (hit as ThreatReason));
      return false;
    });
    if (!misses.length) return out;
    try {
      const listed = await this.client.find(misses);
      for (const u of misses) out.set(u, listed.get(u) ?? null);
      await this.writeCache(misses.map((u) => [u, listed.get(u) ?? CLEAN]));
    } catch (err) {
      this.logger.warn({ err: String(err), urls: misses.length }, 'Safe Browsing not reached: destinations accepted, to be re-checked');
      for (const u of misses) out.set(u, undefined);
    }
    return out;
  }

  private async readCache(urls: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!this.redis?.isReady || !urls.length) return out;
    try {
      const pipeline = this.redis.client.pipeline();
      for (const u of urls) pipeline.get(this.cacheKey(u));
      const replies = (await withTimeout(pipeline.exec(), CACHE_TIMEOUT_MS)) ?? [];
      replies.forEach(([err, value], i) => {
        if (!err && typeof value === 'string') out.set(urls[i], value);
      });
    } catch {
      // A miss: asked again.
    }
    return out;
  }

  private async writeCache(entries: Array<[string, string]>): Promise<void> {
    if (!this.redis?.isReady) return;
    const pipeline = this.redis.client.pipeline();
    for (const [u, v] of entries) pipeline.set(this.cacheKey(u), v, 'EX', SAFE_BROWSING_CACHE_SECONDS);
    await withTimeout(pipeline.exec(), CACHE_TIMEOUT_MS).catch(() => undefined);
  }
}
