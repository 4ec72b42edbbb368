import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { ValidationError, ValidationMap } from '@dl/platform/http';
import { FeedSnapshot, FeedStore, parseFeedPaths } from './feed-store';
import { Brand, parseBrands } from './lookalike';
import { screenLocally } from './screen';
import { Verdict } from './verdict';

/**
 * One `screen(urls)` for every place that stores a destination (decisions §22). Feeds load when
 * the app starts and reload when a file changes (polled every THREAT_FEEDS_POLL_MS) or on
 * `reloadFeeds()`; a screen during the first load waits for it, so nothing slips through at boot.
 */
@Injectable()
export class SafetyService implements OnModuleDestroy {
  private readonly logger = new Logger(SafetyService.name);
  private readonly feeds: FeedStore;
  private readonly brands: Brand[];
  private readonly listeners = new Set<(snapshot: FeedSnapshot, previousVersion: string) => void>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.brands = parseBrands(config.PROTECTED_BRANDS);
    this.feeds = new FeedStore(parseFeedPaths(config.THREAT_FEEDS), (snapshot, previous) => {
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

  /** The verdict of each URL, in order. */
  async screen(urls: readonly string[]): Promise<Verdict[]> {
    await this.feeds.ready.catch(() => undefined);
    const { matcher } = this.feeds.snapshot;
    return urls.map((u) => screenLocally(u, matcher, this.brands));
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
  }
}
