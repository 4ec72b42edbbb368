import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { JobQueue, Queues } from '@dl/platform/queue';

/** 1st of each month at 00:30 UTC; an empty period means "the month before the run". */
export const MONTHLY_REPORTS_CRON = '30 0 1 * *';
export const MONTHLY_REPORTS_SCHEDULER_ID = 'reports.monthly-run';

@Injectable()
export class ReportsScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(ReportsScheduler.name);

  constructor(
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.WORKER_SCHEDULES_ENABLED) return;
    // Upsert: every worker instance may register it; BullMQ keeps one scheduler per id.
    await this.jobs.queue(Queues.reports).upsertJobScheduler(
      MONTHLY_REPORTS_SCHEDULER_ID,
      { pattern: MONTHLY_REPORTS_CRON, tz: 'UTC' },
      { name: 'reports.monthly-run', data: { period: '' } },
    );
    this.logger.log({ cron: MONTHLY_REPORTS_CRON }, 'monthly reports schedule registered');
  }
}
