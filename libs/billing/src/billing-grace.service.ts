import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig, BillingSettings } from '@dl/platform/config';
import { BillingClock } from './billing-clock';
import { BillingRepository } from './billing.repository';
import { effectiveTier, GRACE_MS } from './billing-state';
import { BILLING_SETTINGS } from './stripe-client';
import { StripeWebhookService } from './stripe-webhook.service';

/**
 * Ends the 7-day grace of past-due organizations: every BILLING_GRACE_SWEEP_MS each api process
 * looks for accounts past due for 7 days by the billing clock and moves them to FREE (once: the
 * row is locked and marked), then tells every process and emails the Owners. Several processes
 * may sweep at once; the lock and the mark make it happen once.
 */
@Injectable()
export class BillingGraceService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(BillingGraceService.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly repo: BillingRepository,
    private readonly clock: BillingClock,
    private readonly webhooks: StripeWebhookService,
    @Inject(BILLING_SETTINGS) private readonly settings: BillingSettings | null,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings) return;
    this.timer = setInterval(() => void this.sweep().catch((err) => this.logger.warn({ err: String(err) }, 'grace sweep failed')), this.config.BILLING_GRACE_SWEEP_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass; returns how many organizations fell to FREE. */
  sweep(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<number> {
    const now = this.clock.now();
    let ended = 0;
    for (const organizationId of await this.repo.graceEnded(new Date(now.getTime() - GRACE_MS))) {
      const result = await this.repo.transaction(async (tx) => {
        const account = await this.repo.lock(tx, organizationId);
        if (!account || account.status !== 'past_due' || account.graceEndedAt || !account.pastDueSince) return null;
        if (now.getTime() - account.pastDueSince.getTime() < GRACE_MS) return null;
        await this.repo.update(tx, organizationId, { graceEndedAt: now });
        const to = effectiveTier(account, now);
        const from = await this.repo.setTier(tx, organizationId, to);
        return { from, to };
      });
      if (!result) continue;
      ended++;
      await this.webhooks.afterCommit({ outcome: 'applied', organizationId, tier: result });
    }
    return ended;
  }
}
