import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RescreenService, SafetyService } from '@dl/safety';
import { FlaggedLinksNotifier } from './flagged-links.notifier';

/** How long a worker waits before asking again for the lock another worker holds. */
const BUSY_RETRY_MS = 1000;

/**
 * Starts a re-screening pass whenever this worker's feeds load a new version (the feed store
 * polls the files every THREAT_FEEDS_POLL_MS), and once at boot for a version no worker has
 * re-screened yet. A change during a pass starts another pass after it. With Safe Browsing on,
 * every SAFE_BROWSING_RECHECK_MS it also re-checks the links Safe Browsing could not answer for.
 */
@Injectable()
export class RescreenRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RescreenRunner.name);
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private unsubscribe: () => void = () => undefined;
  private recheckTimer: NodeJS.Timeout | null = null;
  private rechecking: Promise<unknown> | null = null;

  constructor(
    private readonly rescreen: RescreenService,
    private readonly safety: SafetyService,
    private readonly notifier: FlaggedLinksNotifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = this.safety.onFeedsLoaded(() => this.request());
    this.request();
    if (this.safety.safeBrowsingEnabled) {
      this.recheckTimer = setInterval(() => this.recheck(), this.config.SAFE_BROWSING_RECHECK_MS);
      this.recheckTimer.unref();
    }
  }

  private recheck(): void {
    if (this.rechecking || this.closed) return;
    this.rechecking = this.rescreen
      .recheckPending((links, suspended) => this.notifier.flagged(links, suspended))
      .catch((err: unknown) => this.logger.error({ err: String(err) }, 'Safe Browsing re-check failed'))
      .finally(() => (this.rechecking = null));
  }

  /** Asks for a pass (joined with one under way: it runs again after). */
  request(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => (this.running = null));
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      let outcome: Awaited<ReturnType<RescreenService['runForCurrentFeeds']>>;
      try {
        outcome = await this.rescreen.runForCurrentFeeds((links, suspended) => this.notifier.flagged(links, suspended), { aborted: () => this.closed });
      } catch (err) {
        this.logger.error({ err: String(err) }, 're-screening failed; retried shortly');
        outcome = 'busy';
      }
      if (outcome === 'busy' && !this.closed) {
        this.retry = setTimeout(() => this.request(), BUSY_RETRY_MS);
        this.retry.unref();
      }
    } while (this.again && !this.closed);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    if (this.retry) clearTimeout(this.retry);
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    await Promise.all([this.running, this.rechecking]);
  }
}
