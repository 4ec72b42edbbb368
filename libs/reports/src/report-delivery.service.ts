import { Injectable, Logger } from '@nestjs/common';
import { JobQueue, Queues } from '@dl/platform/queue';
import { dailyClicksChart } from './email/chart';
import { MailerService } from './email/mailer.service';
import { CHART_CID, renderReportEmail } from './email/report-email';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

export interface DeliveryOutcome {
  organizationId: string;
  period: string;
  status: 'skipped' | 'sent' | 'already-sent' | 'no-recipients' | 'stored';
  created: boolean;
  recipients: number;
}

/**
 * The scheduled path: store a finished month, email it once to Owners and Admins,
 * announce `report.generated`. Safe to run twice (stored once; the email is sent
 * under a row lock and marked with `emailed_at`; the webhook event id is stable).
 */
@Injectable()
export class ReportDeliveryService {
  private readonly logger = new Logger(ReportDeliveryService.name);

  constructor(
    private readonly reports: ReportsService,
    private readonly repo: ReportsRepository,
    private readonly mailer: MailerService,
    private readonly jobs: JobQueue,
  ) {}

  async deliver(organizationId: string, period: string, email: boolean): Promise<DeliveryOutcome> {
    const stored = await this.reports.ensureStoredFor(organizationId, period);
    if (!stored) {
      this.logger.warn({ organizationId, period }, 'monthly report skipped (month not finished or before workspace)');
      return { organizationId, period, status: 'skipped', created: false, recipients: 0 };
    }
    const { report } = stored;
    await this.jobs.add(Queues.webhooks, 'webhook.event', {
      eventId: `report.generated.${organizationId}.${period}`,
      organizationId,
      type: 'report.generated',
      projectId: null,
      occurredAt: report.generatedAt,
      data: {
        period,
        label: report.period.label,
        generatedAt: report.generatedAt,
        clicks: report.kpis.clicks.value,
        url: `/api/reports/monthly/${period}`,
      },
    });
    if (!email) return { organizationId, period, status: 'stored', created: stored.created, recipients: 0 };

    const recipients = await this.repo.recipients(organizationId);
    if (!recipients.length) {
      return { organizationId, period, status: 'no-recipients', created: stored.created, recipients: 0 };
    }
    const rendered = renderReportEmail(report);
    const chart = dailyClicksChart(report.daily.map((d) => d.clicks));
    const status = await this.repo.withEmailClaim(organizationId, period, async () => {
      for (const to of recipients) {
        await this.mailer.send({
          to: to.name ? { name: to.name, address: to.email } : to.email,
          subject: rendered.subject,
          html: rendered.html,
          text: rendered.text,
          attachments: [
            { filename: 'daily-clicks.png', content: chart, contentType: 'image/png', cid: CHART_CID, contentDisposition: 'inline' },
          ],
          headers: { 'X-Report-Period': period },
        });
      }
    });
    if (status === 'sent') {
      this.logger.log({ organizationId, period, recipients: recipients.length }, 'monthly report emailed');
    }
    return {
      organizationId,
      period,
      status: status === 'missing' ? 'skipped' : status,
      created: stored.created,
      recipients: status === 'sent' ? recipients.length : 0,
    };
  }
}
