import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { ClickPartitionsService, ClickRetentionService } from '@dl/clicks';
import { DomainsService } from '@dl/domains';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import { assertHandlers, JobName, JobQueue, Queues, QueueHandlers } from '@dl/platform/queue';
import { guardJob } from '../resilience/job-guard';

/** Daily, at a quiet hour (UTC). */
export const CLICKS_PRUNE_SCHEDULE = { id: 'clicks.prune.daily', pattern: '17 3 * * *' };

/** Daily: the monthly partitions of `clicks` three months ahead (also queued once at every start of a scheduling worker). */
export const CLICKS_PARTITIONS_SCHEDULE = { id: 'clicks.partitions.daily', pattern: '7 0 * * *' };

/** Every 10 minutes: pending branded domains (for 7 days) and the daily re-check of verified ones. */
export const DOMAINS_RECHECK_SCHEDULE = { id: 'domains.recheck', pattern: '*/10 * * * *' };

/** Consumer of the `maintenance` queue: raw click retention per plan, clicks partitions ahead, branded domain DNS re-checks. */
@Processor(Queues.maintenance)
export class MaintenanceProcessor extends WorkerHost {
  private readonly handlers: QueueHandlers<typeof Queues.maintenance>;

  constructor(
    retention: ClickRetentionService,
    partitions: ClickPartitionsService,
    domains: DomainsService,
    private readonly metrics: MetricsService,
  ) {
    super();
    this.handlers = {
      'clicks.prune': (payload) => retention.prune(payload.now ? new Date(payload.now) : new Date()),
      'clicks.partitions': (payload) => partitions.ensureAhead(payload.now ? new Date(payload.now) : new Date()),
      'domains.recheck': (payload) => domains.recheckDue(payload.now ? new Date(payload.now) : new Date()),
    };
    assertHandlers(Queues.maintenance, this.handlers);
  }

  async process(job: Job, token?: string): Promise<unknown> {
    const name = job.name as JobName<typeof Queues.maintenance>;
    const handler = this.handlers[name];
    const labels = { queue: Queues.maintenance, job: job.name };
    try {
      if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${Queues.maintenance}"`);
      const result = await guardJob(job, token, () => handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade }));
      this.metrics.jobOutcomes.inc({ ...labels, outcome: 'completed' });
      return result;
    } catch (err) {
      this.metrics.jobOutcomes.inc({ ...labels, outcome: err instanceof DelayedError ? 'handed_back' : 'failed' });
      throw err;
    }
  }
}

/** Registers the repeatable retention and domain re-check jobs when this worker runs schedules. */
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
    await this.jobs
      .queue(Queues.maintenance)
      .upsertJobScheduler(
        CLICKS_PARTITIONS_SCHEDULE.id,
        { pattern: CLICKS_PARTITIONS_SCHEDULE.pattern, tz: 'UTC' },
        { name: 'clicks.partitions', data: {} },
      );
    // Once now as well: a deploy never waits for midnight to have next month's partition.
    await this.jobs.queue(Queues.maintenance).add('clicks.partitions', {}, { jobId: `clicks.partitions.boot.${new Date().toISOString().slice(0, 10)}` });
    await this.jobs
      .queue(Queues.maintenance)
      .upsertJobScheduler(
        DOMAINS_RECHECK_SCHEDULE.id,
        { pattern: DOMAINS_RECHECK_SCHEDULE.pattern, tz: 'UTC' },
        { name: 'domains.recheck', data: {}, opts: { attempts: 1 } },
      );
    this.logger.log(
      { schedules: [CLICKS_PRUNE_SCHEDULE, CLICKS_PARTITIONS_SCHEDULE, DOMAINS_RECHECK_SCHEDULE] },
      'click retention, clicks partitions and domain re-checks scheduled',
    );
  }
}
