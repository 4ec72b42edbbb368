import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { infraDependency, reportOutage } from '@dl/platform/observability';
import { WebhookDeliveryService } from '@dl/webhooks';

/**
 * Every WEBHOOK_LANE_SWEEP_MS, re-queues a drain job for each webhook lane that holds deliveries
 * but lost its drain job (so a long outage never leaves deliveries waiting for the webhook's next
 * event). Every worker instance sweeps; the lane's drain marker lets one of them win.
 */
@Injectable()
export class WebhookLaneSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookLaneSweep');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly delivery: WebhookDeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.WEBHOOK_LANE_SWEEP_MS);
    this.timer.unref();
  }

  /** One sweep at a time; errors are logged (an outage: one warning per 30 s), never thrown. */
  sweep(): Promise<number> {
    this.running ??= this.delivery
      .sweepLanes()
      .catch((err: unknown) => {
        const dependency = infraDependency(err, 'redis');
        if (dependency) reportOutage(dependency, err, 'webhook lane sweep');
        else this.logger.error({ err }, 'webhook lane sweep failed');
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
