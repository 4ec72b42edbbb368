import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { Job } from 'bullmq';
import { JobQueue, assertHandlers, JobName, QueueHandlers, Queues } from '@dl/platform/queue';
import { guardJob } from '../resilience/job-guard';
import { periodEnd, parsePeriod, ReportDeliveryService, ReportsRepository, ReportsService } from '@dl/reports';

/**
 * `reports.monthly-run` (the 1st at 00:30 UTC) fans out one `reports.monthly` per
 * organization; each stores the finished month, emails Owners and Admins once and
 * announces `report.generated`. Job ids de-duplicate a schedule that fires twice.
 */
@Processor(Queues.reports, { concurrency: 2 })
export class ReportsProcessor extends WorkerHost {
  private readonly logger = new Logger(ReportsProcessor.name);
  private readonly handlers: QueueHandlers<'reports'>;

  constructor(
    private readonly reports: ReportsService,
    private readonly repo: ReportsRepository,
    private readonly delivery: ReportDeliveryService,
    private readonly jobs: JobQueue,
  ) {
    super();
    this.handlers = {
      'reports.monthly-run': async ({ period }) => {
        const key = period || this.reports.previousPeriod();
        const p = parsePeriod(key);
        if (!p) throw new Error(`invalid period "${key}"`);
        const orgIds = await this.repo.organizationIdsCreatedBefore(periodEnd(p));
        this.logger.log({ period: key, organizations: orgIds.length }, 'monthly reports run: fanning out');
        for (let i = 0; i < orgIds.length; i += 500) {
          await this.jobs.addBulk(
            'reports',
            'reports.monthly',
            orgIds.slice(i, i + 500).map((organizationId) => ({
              payload: { organizationId, period: key, email: true },
              opts: { jobId: `report-${organizationId}-${key}` },
            })),
          );
        }
        return { period: key, organizations: orgIds.length };
      },
      'reports.monthly': async ({ organizationId, period, email }) => {
        const outcome = await this.delivery.deliver(organizationId, period, email);
        this.logger.log(outcome, 'monthly report done');
        return outcome;
      },
    };
    assertHandlers(Queues.reports, this.handlers);
  }

  async process(job: Job, token?: string): Promise<unknown> {
    const name = job.name as JobName<'reports'>;
    const handler = this.handlers[name] as (p: unknown, m: { jobId: string; attemptsMade: number }) => Promise<unknown>;
    if (!handler) throw new Error(`no handler for reports job "${job.name}"`);
    return guardJob(job, token, () => handler(job.data, { jobId: job.id ?? '', attemptsMade: job.attemptsMade }));
  }
}
