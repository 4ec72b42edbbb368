import { Injectable, Logger } from '@nestjs/common';
import { JobQueue, Queues } from '@dl/platform/queue';
import { parsePeriod, periodEnd } from './period';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/** Organizations per `addBulk` of the fan-out. */
const FAN_OUT_CHUNK = 500;

/**
 * The monthly run (`reports.monthly-run`, the 1st at 00:30 UTC): one `reports.monthly` job per
 * organization that existed before the month ended. Job ids (`report-<org>-<period>`)
 * de-duplicate a schedule that fires twice; an empty period means the month before the run.
 */
@Injectable()
export class MonthlyReportsFanOut {
  private readonly logger = new Logger(MonthlyReportsFanOut.name);

  constructor(
    private readonly reports: ReportsService,
    private readonly repo: ReportsRepository,
    private readonly jobs: JobQueue,
  ) {}

  async run(period: string): Promise<{ period: string; organizations: number }> {
    const key = period || this.reports.previousPeriod();
    const p = parsePeriod(key);
    if (!p) throw new Error(`invalid period "${key}"`);
    const orgIds = await this.repo.organizationIdsCreatedBefore(periodEnd(p));
    this.logger.log({ period: key, organizations: orgIds.length }, 'monthly reports run: fanning out');
    for (let i = 0; i < orgIds.length; i += FAN_OUT_CHUNK) {
      await this.jobs.addBulk(
        Queues.reports,
        'reports.monthly',
        orgIds.slice(i, i + FAN_OUT_CHUNK).map((organizationId) => ({
          payload: { organizationId, period: key, email: true },
          opts: { jobId: `report-${organizationId}-${key}` },
        })),
      );
    }
    return { period: key, organizations: orgIds.length };
  }
}
