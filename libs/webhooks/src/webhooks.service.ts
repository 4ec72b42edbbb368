import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Tier } from '@dl/platform/db';
import { ProjectNotFoundError } from '@dl/links';
import { NoUpdatesError, normalizeUrl } from '@dl/platform/http';
import { JobQueue, Queues } from '@dl/platform/queue';
import { isUuid } from '@dl/platform/validation';
import { deliverJobOptions } from './webhook-job-options';
import { TEST_EVENT_TYPE, testBody } from './webhook-events';
import { generateWebhookSecret } from './webhook-signature';
import {
  CreatedWebhookResponse,
  CreateWebhookDto,
  ListDeliveriesQuery,
  toDeliveryResponse,
  toWebhookResponse,
  UpdateWebhookDto,
  WebhookDeliveryResponse,
  WebhookResponse,
} from './webhooks.dto';
import { WebhookLimitError, WebhookNotFoundError } from './webhooks.errors';
import { WebhooksRepository } from './webhooks.repository';

/** Webhooks an organization may hold, per plan (docs/decisions/webhooks.md, "Plan limit"). */
export const WEBHOOK_LIMITS: Record<Tier, number | null> = {
  FREE: 5,
  PRO: 25,
  BUSINESS: 100,
  UNLIMITED: null,
};

/** Who is calling: organization and plan, from the principal. */
export interface WebhookCaller {
  organizationId: string;
  tier: Tier;
}


/** Management of webhook subscriptions (Admin/Owner; the guard checks the role). */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly audit: AuditSink,
  ) {}

  async create(caller: WebhookCaller, dto: CreateWebhookDto): Promise<CreatedWebhookResponse> {
    const projectId = dto.projectId ?? null;
    if (projectId) await this.assertProject(caller.organizationId, projectId);
    const limit = WEBHOOK_LIMITS[caller.tier];
    if (limit !== null && (await this.repo.count(caller.organizationId)) >= limit) throw new WebhookLimitError();
    const secret = generateWebhookSecret();
    const webhook = await this.repo.create(caller.organizationId, { url: normalizeUrl(dto.url), events: dto.events, projectId, secret });
    this.logger.log({ msg: 'webhook created', organizationId: caller.organizationId, webhookId: webhook.id });
    this.audit.record({ organizationId: caller.organizationId, action: 'webhook.created', targetId: webhook.id, changes: { url: webhook.url, events: dto.events, projectId } });
    return { ...toWebhookResponse(webhook), secret };
  }

  async list(caller: WebhookCaller): Promise<WebhookResponse[]> {
    return (await this.repo.list(caller.organizationId)).map(toWebhookResponse);
  }

  async get(caller: WebhookCaller, id: string): Promise<WebhookResponse> {
    return toWebhookResponse(await this.mustFind(caller.organizationId, id));
  }

  async update(caller: WebhookCaller, id: string, dto: UpdateWebhookDto): Promise<WebhookResponse> {
    await this.mustFind(caller.organizationId, id);
    const changes = Object.fromEntries(Object.entries(dto).filter(([, v]) => v !== undefined));
    if (typeof changes.url === 'string') changes.url = normalizeUrl(changes.url);
    if (!Object.keys(changes).length) throw new NoUpdatesError();
    if (dto.projectId) await this.assertProject(caller.organizationId, dto.projectId);
    const updated = await this.repo.update(caller.organizationId, id, changes);
    if (!updated) throw new WebhookNotFoundError();
    this.audit.record({ organizationId: caller.organizationId, action: 'webhook.updated', targetId: id, changes });
    return toWebhookResponse(updated);
  }

  async remove(caller: WebhookCaller, id: string): Promise<{ success: true }> {
    if (!isUuid(id) || !(await this.repo.delete(caller.organizationId, id))) throw new WebhookNotFoundError();
    this.audit.record({ organizationId: caller.organizationId, action: 'webhook.deleted', targetId: id });
    return { success: true };
  }

  /** Queues a signed `webhook.test` delivery through the normal engine (even to a disabled webhook). */
  async sendTest(caller: WebhookCaller, id: string): Promise<WebhookDeliveryResponse> {
    const webhook = await this.mustFind(caller.organizationId, id);
    const eventId = randomUUID();
    const payload = testBody(webhook.id, new Date());
    const delivery = await this.repo.createDelivery(caller.organizationId, {
      webhookId: webhook.id,
      eventId,
      eventType: TEST_EVENT_TYPE,
      payload,
    });
    await this.queue.add(
      Queues.webhooks,
      'webhook.deliver',
      {
        deliveryId: delivery.id,
        webhookId: webhook.id,
        organizationId: caller.organizationId,
        eventId,
        body: JSON.stringify(payload),
        test: true,
      },
      { ...deliverJobOptions(this.config, delivery.id), timeoutMs: 5000 },
    );
    return toDeliveryResponse(delivery);
  }

  async deliveries(caller: WebhookCaller, id: string, query: ListDeliveriesQuery): Promise<WebhookDeliveryResponse[]> {
    const webhook = await this.mustFind(caller.organizationId, id);
    const rows = await this.repo.listDeliveries(caller.organizationId, webhook.id, {
      limit: query.limit ?? 50,
      status: query.status,
    });
    return rows.map(toDeliveryResponse);
  }

  private async mustFind(organizationId: string, id: string) {
    const webhook = isUuid(id) ? await this.repo.find(organizationId, id) : null;
    if (!webhook) throw new WebhookNotFoundError();
    return webhook;
  }

  private async assertProject(organizationId: string, projectId: string): Promise<void> {
    if (!(await this.repo.projectExists(organizationId, projectId))) throw new ProjectNotFoundError();
  }
}
