import { Processor } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';
import { AuditRetentionService } from '@dl/audit';
import { ClickPartitionsService, ClickRetentionService } from '@dl/clicks';
import { DomainsService } from '@dl/domains';
import { OrganizationDeletionService } from '@dl/organizations';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import { JobQueue, Queues, QueueHandlers } from '@dl/platform/queue';
import { QueueProcessor } from '../dispatch/queue-processor';

/** Daily, at a quiet hour (UTC). */
export const CLICKS_PRUNE_SCHEDULE = { id: 'clicks.prune.daily', pattern: '17 3 * * *' };

/** Daily: the monthly partitions of `clicks` three months ahead (also queued once at every start of a scheduling worker). */
export const CLICKS_PARTITIONS_SCHEDULE = { id: 'clicks.partitions.daily', pattern: '7 0 * * *' };

/** Every 10 minutes: pending branded domains (for 7 days) and the daily re-check of verified ones. */
export const DOMAINS_RECHECK_SCHEDULE = { id: 'domains.recheck', pattern: '*/10 * * * *' };

/** Hourly: organizations whose scheduled deletion date has come (decisions §20). */
export const ORGANIZATIONS_DELETE_SCHEDULE = { id: 'organizations.delete-due', pattern: '23 * * * *' };
/** Daily: audit entries past their plan's retention. */
export const AUDIT_PRUNE_SCHEDULE = { id: 'audit.prune.daily', pattern: '37 3 * * *' };

/** Consumer of the `maintenance` queue: raw click retention per plan, clicks partitions ahead, branded domain DNS re-checks. */
@Processor(Queues.maintenance)
export class MaintenanceProcessor extends QueueProcessor<typeof Queues.maintenance> {
  constructor(
    private readonly retention: ClickRetentionService,
    private readonly partitions: ClickPartitionsService,
    private readonly domains: DomainsService,
    private readonly deletions: OrganizationDeletionService,
    private readonly auditRetention: AuditRetentionService,
    metrics: MetricsService,
  ) {
    super(Queues.maintenance, metrics);
  }

  protected handlers(): QueueHandlers<typeof Queues.maintenance> {
    const at = (now: string | undefined) => (now ? new Date(now) : new Date());
    return {
      'clicks.prune': (payload) => this.retention.prune(at(payload.now)),
      'clicks.partitions': (payload) => this.partitions.ensureAhead(at(payload.now)),
      'domains.recheck': (payload) => this.domains.recheckDue(at(payload.now)),
      'organizations.delete-due': (payload) => this.deletions.deleteDue(at(payload.now)),
      'audit.prune': (payload) => this.auditRetention.prune(at(payload.now)),
    };
  }
}

type MaintenanceJobName = keyof QueueHandlers<typeof Queues.maintenance>;

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
    const maintenance = this.jobs.queue(Queues.maintenance);
    const schedule = (at: { id: string; pattern: string }, name: MaintenanceJobName, opts?: JobsOptions) =>
      maintenance.upsertJobScheduler(at.id, { pattern: at.pattern, tz: 'UTC' }, { name, data: {}, ...(opts ? { opts } : {}) });
    await schedule(CLICKS_PRUNE_SCHEDULE, 'clicks.prune');
    await schedule(CLICKS_PARTITIONS_SCHEDULE, 'clicks.partitions');
    // Once now as well: a deploy never waits for midnight to have next month's partition.
    await maintenance.add('clicks.partitions', {}, { jobId: `clicks.partitions.boot.${new Date().toISOString().slice(0, 10)}` });
    await schedule(DOMAINS_RECHECK_SCHEDULE, 'domains.recheck', { attempts: 1 });
    await schedule(ORGANIZATIONS_DELETE_SCHEDULE, 'organizations.delete-due');
    await schedule(AUDIT_PRUNE_SCHEDULE, 'audit.prune');
    this.logger.log(
      { schedules: [CLICKS_PRUNE_SCHEDULE, CLICKS_PARTITIONS_SCHEDULE, DOMAINS_RECHECK_SCHEDULE, ORGANIZATIONS_DELETE_SCHEDULE, AUDIT_PRUNE_SCHEDULE] },
      'click retention, clicks partitions and domain re-checks scheduled',
    );
  }
}
