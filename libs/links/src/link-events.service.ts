import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { JobQueue, WebhookEventJob } from '@dl/platform/queue';
import { RedisService } from '@dl/platform/redis';
import { toLinkEventData } from './link.mapper';
import { LinkRecord } from './link.types';

export type LinkEventType = 'link.created' | 'link.updated' | 'link.deleted';

/** How long an API call waits for Redis before giving up on a notification. */
const QUEUE_TIMEOUT_MS = 1000;

/**
 * After a change to links commits: (a) publish each short code on the
 * invalidation channel the redirect instances subscribe to, (b) queue
 * `link.*` webhook events. Neither failure fails the API call: both are logged.
 */
@Injectable()
export class LinkEventsService {
  private readonly logger = new Logger(LinkEventsService.name);

  constructor(
    private readonly redis: RedisService,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The channel name (message body = the short code). */
  get invalidationChannel(): string {
    return this.redis.key('links', 'invalidate');
  }

  async linksChanged(type: LinkEventType, links: LinkRecord[]): Promise<void> {
    if (!links.length) return;
    await Promise.all([this.invalidate(links.map((l) => l.shortCode)), this.enqueue(type, links)]);
  }

  async invalidate(shortCodes: string[]): Promise<void> {
    if (!shortCodes.length) return;
    try {
      const channel = this.invalidationChannel;
      const pipeline = this.redis.client.pipeline();
      for (const code of shortCodes) pipeline.publish(channel, code);
      await pipeline.exec();
    } catch (err) {
      this.logger.error({ err: String(err), count: shortCodes.length }, 'link cache invalidation not published');
    }
  }

  private async enqueue(type: LinkEventType, links: LinkRecord[]): Promise<void> {
    const occurredAt = new Date().toISOString();
    const jobs = links.map((link) => {
      const payload: WebhookEventJob = {
        eventId: randomUUID(),
        organizationId: link.organizationId,
        type,
        projectId: link.projectId,
        occurredAt,
        data: toLinkEventData(link, this.config.SHORT_LINK_BASE_URL),
      };
      return { payload, opts: { jobId: payload.eventId } };
    });
    try {
      if (jobs.length === 1) {
        await this.jobs.add('webhooks', 'webhook.event', jobs[0].payload, { ...jobs[0].opts, timeoutMs: QUEUE_TIMEOUT_MS });
      } else {
        await this.jobs.addBulk('webhooks', 'webhook.event', jobs, QUEUE_TIMEOUT_MS * 5);
      }
    } catch (err) {
      this.logger.error({ err: String(err), type, count: jobs.length }, 'link webhook events not queued');
    }
  }
}
