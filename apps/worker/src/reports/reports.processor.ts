import { Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { MetricsService } from '@dl/platform/observability';
import { QueueHandlers, Queues } from '@dl/platform/queue';
import { MonthlyReportsFanOut, ReportDeliveryService } from '@dl/reports';
import { QueueProcessor } from '../dispatch/queue-processor';

/**
 * `reports.monthly-run` fans out one `reports.monthly` per organization (MonthlyReportsFanOut);
 * each stores the finished month, emails Owners and Admins once and announces `report.generated`
 * (ReportDeliveryService).
 */
@Processor(Queues.reports, { concurrency: 2 })
export class ReportsProcessor extends QueueProcessor<typeof Queues.reports> {
  private readonly logger = new Logger(ReportsProcessor.name);

  constructor(
    private readonly fanOut: MonthlyReportsFanOut,
    private readonly delivery: ReportDeliveryService,
    metrics: MetricsService,
  ) {
    super(Queues.reports, metrics);
  }

  protected handlers(): QueueHandlers<typeof Queues.reports> {
    return {
      'reports.monthly-run': ({ period }) => this.fanOut.run(period),
      'reports.monthly': async ({ organizationId, period, email }) => {
        const outcome = await this.delivery.deliver(organizationId, period, email);
        this.logger.log(outcome, 'monthly report done');
        return outcome;
      },
    };
  }
}
