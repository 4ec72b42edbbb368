import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ValidationError, ValidationMap } from '@dl/platform/http';
import { RedisService } from '@dl/platform/redis';
import { canonicalizeUrl } from './canonical-url';
import { FeedSnapshot, FeedStore, parseFeedPaths } from './feed-store';
import { Brand, parseBrands } from './lookalike';
import { SafeBrowsingClient } from './safe-browsing.client';
import { SafeBrowsingLookup } from './safe-browsing.lookup';
import { screenLocally } from './screen';
import { Verdict } from './verdict';

/** The channel `npm run cli -- threats:reload` publishes on: every process that screens reloads its feeds. */
export function feedsReloadChannel(redis: { key(...parts: string[]): string }): string {
  return redis.key('safety', 'feeds-reload');
}

/**
 * One `screen(urls)` for every place that stores a destination (decisions §22). Feeds load when
 * the app starts and reload when a file changes (polled every THREAT_FEEDS_POLL_MS), on a message
 * of `feedsReloadChannel` (the operator's `threats:reload`) or on `reloadFeeds()`; a screen during
 * the first load waits for it, so nothing slips through at boot.
 * With SAFE_BROWSING_API_KEY, destinations the local rules do not block are also looked up in
 * Google Safe Browsing; one it could not answer for is accepted and marked `pending`.
 */
@Injectable()
export class SafetyService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SafetyService.name);
  private readonly feeds: FeedStore;
  private readonly hasFeeds: boolean;
  private subscriber: Redis | null = null;
  private readonly brands: Brand[];
  private readonly safeBrowsing: SafeBrowsingLookup | null;
  private readonly listeners = new Set<(snapshot: FeedSnapshot, previousVersion: string) => void>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() private readonly redis?: RedisService,
  ) {
    this.brands = parseBrands(config.PROTECTED_BRANDS);
    this.safeBrowsing = config.SAFE_BROWSING_API_KEY
      ? new SafeBrowsingLookup(new SafeBrowsingClient({ apiKey: config.SAFE_BROWSING_API_KEY, baseUrl: config.SAFE_BROWSING_API_BASE, timeoutMs: config.SAFE_BROWSING_TIMEOUT_MS }), redis)
      : null;
    const paths = parseFeedPaths(config.THREAT_FEEDS);
    this.hasFeeds = paths.length > 0;
    this.feeds = new FeedStore(paths, (snapshot, previous) => {
      for (const f of snapshot.files) {
        const fields = { feed: f.path, entries: f.entries, malformed: f.malformed, error: f.error };
        if (f.error) this.logger.warn(fields, 'threat feed could not be read');
        else this.logger.log(fields, 'threat feed loaded');
      }
      for (const listener of this.listeners) listener(snapshot, previous);
    });
    this.feeds.ready.catch((err: unknown) => this.logger.error(err, 'threat feeds failed to load'));
    this.feeds.watch(config.THREAT_FEEDS_POLL_MS);
  }

  /** Listens for the operator's `threats:reload` (with feeds and Redis); the file poll goes on regardless. */
  async onModuleInit(): Promise<void> {
    if (!this.redis || !this.hasFeeds) return;
    this.subscriber = await this.redis.subscribe(
      feedsReloadChannel(this.redis),
      () => void this.reloadFeeds().catch((err: unknown) => this.logger.error(err, 'threat feeds failed to reload')),
      () => this.logger.warn('Could not subscribe to threats:reload yet; feeds still reload when a file changes'),
    );
  }

  /** Whether Safe Browsing is asked (SAFE_BROWSING_API_KEY set). */
  get safeBrowsingEnabled(): boolean {
    return this.safeBrowsing !== null;
  }

  /** The verdict of each URL, in order. */
  async screen(urls: readonly string[]): Promise<Verdict[]> {
    await this.feeds.ready.catch(() => undefined);
    const { matcher } = this.feeds.snapshot;
    const local = urls.map((u) => screenLocally(u, matcher, this.brands));
    if (!this.safeBrowsing) return local;
    const ask = urls.filter((u, i) => local[i].status !== 'blocked' && canonicalizeUrl(u) !== null);
    if (!ask.length) return local;
    const found = await this.safeBrowsing.verdicts(ask);
    return urls.map((u, i) => {
      if (!found.has(u) || local[i].status === 'blocked') return local[i];
      const reason = found.get(u);
      if (reason === undefined) return { ...local[i], pending: true };
      return reason ? { status: 'blocked', reason } : local[i];
    });
  }

  /**
   * Screens named destinations (a template's defaults, a domain's settings): 400 `Validation error`
   * with `validation.<name> = Destination blocked: <reason>` when one is blocked.
   */
  async refuseBlocked(fields: ReadonlyArray<[string, string]>): Promise<void> {
    const verdicts = await this.screen(fields.map(([, url]) => url));
    const validation: ValidationMap = {};
    for (const [i, v] of verdicts.entries()) if (v.status === 'blocked') validation[fields[i][0]] = `Destination blocked: ${v.reason}`;
    if (Object.keys(validation).length) throw new ValidationError(validation);
  }
  /** The loaded feeds (for re-screening and the operator). */
  get snapshot(): FeedSnapshot {
    return this.feeds.snapshot;
  }

  /** Reloads every feed file now. */
  reloadFeeds(): Promise<FeedSnapshot> {
    return this.feeds.reload();
  }

  /** Reloads when a file changed; true when it did. */
  reloadFeedsIfChanged(): Promise<boolean> {
    return this.feeds.reloadIfChanged();
  }

  /** Calls `listener` after every load (the first one included). */
  onFeedsLoaded(listener: (snapshot: FeedSnapshot, previousVersion: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onModuleDestroy(): void {
    this.feeds.close();
    this.subscriber?.disconnect();
  }
}
