import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { ClickRetentionService } from '@dl/clicks';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import { assertHandlers, JobName, JobQueue, Queues, QueueHandlers } from '@dl/platform/queue';

/** Daily, at a quiet hour (UTC). */
export const CLICKS_PRUNE_SCHEDULE = { id: 'clicks.prune.daily', pattern: '17 3 * * *' };

/** Consumer of the `maintenance` queue: raw click retention per plan. */
@Processor(Queues.maintenance)
export class MaintenanceProcessor extends WorkerHost {
  private readonly handlers: QueueHandlers<typeof Queues.maintenance>;

  constructor(
    retention: ClickRetentionService,
    private readonly metrics: MetricsService,
  ) {
    super();
    this.handlers = {
      'clicks.prune': (payload) => retention.prune(payload.now ? new Date(payload.now) : new Date()),
    };
    assertHandlers(Queues.maintenance, this.handlers);
  }

  async process(job: Job): Promise<unknown> {
    const name = job.name as JobName<typeof Queues.maintenance>;
    const handler = this.handlers[name];
    const labels = { queue: Queues.maintenance, job: job.name };
    try {
      if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${Queues.maintenance}"`);
      const result = await handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade });
      this.metrics.jobOutcomes.inc({ ...labels, outcome: 'completed' });
      return result;
    } catch (err) {
      this.metrics.jobOutcomes.inc({ ...labels, outcome: 'failed' });
      throw err;
    }
  }
}

/** Registers the repeatable retention job when this worker runs schedules. */
@Injectable()
export class MaintenanceSchedules implements OnApplicationBootstrap {
  private readonly logger = new Logger(MaintenanceSchedules.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobQueue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.WORKER_SCHEDULES_ENABLED) return;
    await this.jobs
      .queue(Queues.maintenance)
      .upsertJobScheduler(
        CLICKS_PRUNE_SCHEDULE.id,
        { pattern: CLICKS_PRUNE_SCHEDULE.pattern, tz: 'UTC' },
        { name: 'clicks.prune', data: {} },
      );
    this.logger.log({ schedule: CLICKS_PRUNE_SCHEDULE }, 'click retention scheduled');
  }
}
