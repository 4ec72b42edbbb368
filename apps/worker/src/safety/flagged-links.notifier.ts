import { Inject, Injectable, Logger } from '@nestjs/common';
import { linkShortUrl } from '@dl/links';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { JobQueue, Queues } from '@dl/platform/queue';
import { MailerService } from '@dl/reports';
import { BlockedLink, renderFlaggedLinksEmail, RescreenPg } from '@dl/safety';

/**
 * Tells an organization that re-screening blocked links of it (decisions §22): one `link.flagged`
 * webhook event per link (`data: {linkId, shortCode, reason}`) and one email per batch to its
 * Owners and Admins. Neither failure undoes a block: both are logged.
 */
@Injectable()
export class FlaggedLinksNotifier {
  private readonly logger = new Logger(FlaggedLinksNotifier.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly mailer: MailerService,
    private readonly pg: RescreenPg,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async flagged(links: BlockedLink[], suspended: ReadonlySet<string>): Promise<void> {
    await this.queueWebhooks(links);
    const byOrg = new Map<string, BlockedLink[]>();
    for (const l of links) byOrg.set(l.organizationId, [...(byOrg.get(l.organizationId) ?? []), l]);
    for (const [organizationId, mine] of byOrg) {
      await this.email(organizationId, mine, suspended.has(organizationId)).catch((err: unknown) =>
        this.logger.error({ err: String(err), organizationId, links: mine.length }, 'flagged links email not sent'),
      );
    }
  }

  private async queueWebhooks(links: BlockedLink[]): Promise<void> {
    const jobs = links.map((l) => {
      const eventId = `link.flagged.${l.id}.${l.blockedAt.getTime()}`;
      return {
        payload: {
          eventId,
          organizationId: l.organizationId,
          type: 'link.flagged' as const,
          projectId: l.projectId,
          occurredAt: l.blockedAt.toISOString(),
          data: { linkId: l.id, shortCode: l.shortCode, reason: l.reason },
        },
        opts: { jobId: eventId },
      };
    });
    await this.jobs.addBulk(Queues.webhooks, 'webhook.event', jobs).catch((err: unknown) => {
      this.logger.error({ err: String(err), count: links.length }, 'link.flagged events not queued');
    });
  }

  private async email(organizationId: string, links: BlockedLink[], suspended: boolean): Promise<void> {
    const contact = await this.pg.contacts(organizationId);
    if (!contact) return;
    const mail = renderFlaggedLinksEmail({
      organization: contact.organization,
      links: links.map((l) => ({ shortUrl: linkShortUrl(l, this.config.SHORT_LINK_BASE_URL), reason: l.reason })),
      suspended,
      linksUrl: `${this.config.DASHBOARD_URL.replace(/\/+$/, '')}/links`,
    });
    for (const r of contact.recipients) {
      await this.mailer.send({ to: { name: r.name, address: r.email }, subject: mail.subject, html: mail.html, text: mail.text });
    }
  }
}
