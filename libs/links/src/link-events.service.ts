import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Batcher } from '@dl/platform/batch';
import { APP_CONFIG, AppConfig, hostCodeKey } from '@dl/platform/config';
import { JobQueue, Queues, WebhookEventJob } from '@dl/platform/queue';
import { linkInvalidationChannel, RedisService } from '@dl/platform/redis';
import { toLinkEventData } from './link.mapper';
import { LinkRecord } from './link.types';

export type LinkEventType = 'link.created' | 'link.updated' | 'link.deleted';

/** One changed link's notifications: its code on the invalidation channel, its webhook event. */
interface LinkNotice {
  code: string;
  job: { payload: WebhookEventJob; opts: { jobId: string } };
}

/** How long an API call waits for Redis before giving up on a notification. */
const QUEUE_TIMEOUT_MS = 1000;
/** Changes within this window share one Redis round trip. */
const BATCH_WINDOW_MS = 2;

/**
 * After a change to links commits: (a) publish each short code on the
 * invalidation channel the redirect instances subscribe to, (b) queue
 * `link.*` webhook events. Neither failure fails the API call: both are logged.
 */
@Injectable()
export class LinkEventsService {
  private readonly logger = new Logger(LinkEventsService.name);
  /** The changes of calls within the window (each call's links stay together); windows overlap freely. */
  private readonly window = new Batcher<LinkNotice[]>({
    maxWaitMs: BATCH_WINDOW_MS,
    maxConcurrent: Infinity,
    write: (calls) => this.flush(calls.flat()),
  });

  constructor(
    private readonly redis: RedisService,
    private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Publishes and queues the notifications of committed changes. Calls within a
   * few milliseconds of each other share one Redis pipeline and one `addBulk`
   * (under load that is most of the cost of a single create); the caller waits
   * for its batch, so a response is sent only once its events are queued.
   */
  async linksChanged(type: LinkEventType, links: LinkRecord[]): Promise<void> {
    if (!links.length) return;
    const occurredAt = new Date().toISOString();
    const notices = links.map((link): LinkNotice => {
      const eventId = randomUUID();
      return {
        code: hostCodeKey(link.domainName, link.shortCode),
        job: {
          payload: {
            eventId,
            organizationId: link.organizationId,
            type,
            projectId: link.projectId,
            occurredAt,
            data: toLinkEventData(link, this.config.SHORT_LINK_BASE_URL),
          },
          opts: { jobId: eventId },
        },
      };
    });
    await this.window.add(notices);
  }

  private async flush(batch: LinkNotice[]): Promise<void> {
    await Promise.all([
      this.invalidate(batch.map((b) => b.code)),
      this.jobs.addBulk(Queues.webhooks, 'webhook.event', batch.map((b) => b.job), QUEUE_TIMEOUT_MS).catch((err: unknown) => {
        this.logger.error({ err: String(err), count: batch.length }, 'link webhook events not queued');
      }),
    ]);
  }

  /** Publishes short codes on the invalidation channel now (project deletion, tests). */
  async invalidate(shortCodes: string[]): Promise<void> {
    if (!shortCodes.length) return;
    try {
      const channel = linkInvalidationChannel(this.redis);
      const pipeline = this.redis.client.pipeline();
      for (const code of shortCodes) pipeline.publish(channel, code);
      await pipeline.exec();
    } catch (err) {
      this.logger.error({ err: String(err), count: shortCodes.length }, 'link cache invalidation not published');
    }
  }
}
