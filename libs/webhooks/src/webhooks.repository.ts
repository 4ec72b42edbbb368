import { Injectable } from '@nestjs/common';
import { DeliveryStatus, PrismaService } from '@dl/platform/db';
import { DeliveryRecord, WebhookRecord } from './webhooks.dto';

const WEBHOOK_FIELDS = {
  id: true,
  url: true,
  events: true,
  projectId: true,
  isActive: true,
  disabledAt: true,
  disabledReason: true,
  failingSince: true,
  createdAt: true,
  updatedAt: true,
} as const;

export interface WebhookChanges {
  url?: string;
  events?: string[];
  projectId?: string | null;
  /** true: re-enable (clears the failure flags); false: disable by hand. */
  isActive?: boolean;
}

/** Webhook subscriptions and their delivery log, always scoped by organization. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly prisma: PrismaService) {}

  count(organizationId: string): Promise<number> {
    return this.prisma.webhook.count({ where: { organizationId } });
  }

  async projectExists(organizationId: string, projectId: string): Promise<boolean> {
    return (await this.prisma.project.count({ where: { id: projectId, organizationId } })) > 0;
  }

  create(
    organizationId: string,
    data: { url: string; events: string[]; projectId: string | null; secret: string },
  ): Promise<WebhookRecord> {
    return this.prisma.webhook.create({ data: { organizationId, ...data }, select: WEBHOOK_FIELDS });
  }

  list(organizationId: string): Promise<WebhookRecord[]> {
    return this.prisma.webhook.findMany({
      where: { organizationId },
      select: WEBHOOK_FIELDS,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  find(organizationId: string, id: string): Promise<WebhookRecord | null> {
    return this.prisma.webhook.findFirst({ where: { id, organizationId }, select: WEBHOOK_FIELDS });
  }

  async update(organizationId: string, id: string, changes: WebhookChanges): Promise<WebhookRecord | null> {
    const { isActive, ...rest } = changes;
    const state =
      isActive === true
        ? { isActive: true, disabledAt: null, disabledReason: null, failingSince: null }
        : isActive === false
          ? { isActive: false, disabledAt: new Date(), disabledReason: 'manual' }
          : {};
    return this.prisma.$transaction(async (tx) => {
      // Disabling an already disabled webhook keeps its original date and reason.
      const where = isActive === false ? { id, organizationId, isActive: true } : { id, organizationId };
      const { count } = await tx.webhook.updateMany({ where, data: { ...rest, ...state } });
      if (!count && isActive === false && Object.keys(rest).length) {
        await tx.webhook.updateMany({ where: { id, organizationId }, data: rest });
      }
      return tx.webhook.findFirst({ where: { id, organizationId }, select: WEBHOOK_FIELDS });
    });
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.webhook.deleteMany({ where: { id, organizationId } });
    return count > 0;
  }

  createDelivery(
    organizationId: string,
    data: { webhookId: string; eventId: string; eventType: string; payload: object },
  ): Promise<DeliveryRecord> {
    return this.prisma.webhookDelivery.create({
      data: { organizationId, ...data },
      include: { attemptsLog: { orderBy: { attempt: 'asc' } } },
    });
  }

  listDeliveries(
    organizationId: string,
    webhookId: string,
    opts: { limit: number; status?: DeliveryStatus },
  ): Promise<DeliveryRecord[]> {
    return this.prisma.webhookDelivery.findMany({
      where: { organizationId, webhookId, ...(opts.status ? { status: opts.status } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: opts.limit,
      include: { attemptsLog: { orderBy: { attempt: 'asc' } } },
    });
  }
}
