import { Injectable, Logger } from '@nestjs/common';
import { LeadCreatedWebhookData, Queues, JobQueue, SaleCreatedWebhookData } from '@dl/platform/queue';
import { CustomerRecord, LeadRecord, SaleRecord } from './conversion.records';
import { toTrackedSale, toTrackLeadResponse } from './track.mapper';

/** How long queueing an event may take before the answer goes out without it. */
const QUEUE_TIMEOUT_MS = 2_000;

/**
 * `lead.created` and `sale.created` webhook events (decisions §23), queued after the row
 * committed with a stable event id (a retried sender cannot send one twice). A queue failure
 * never fails the call: the row is stored, and failing would make the sender retry a sale
 * that has no invoice id.
 */
@Injectable()
export class ConversionEventsService {
  private readonly logger = new Logger('ConversionEvents');

  constructor(private readonly queue: JobQueue) {}

  async leadCreated(organizationId: string, customer: CustomerRecord, lead: LeadRecord): Promise<void> {
    const data: LeadCreatedWebhookData = { ...toTrackLeadResponse(customer, lead), linkId: customer.linkId };
    await this.send(organizationId, `lead.created.${lead.id}`, { type: 'lead.created', data }, lead.createdAt);
  }

  async saleCreated(organizationId: string, customer: CustomerRecord | null, sale: SaleRecord): Promise<void> {
    const data: SaleCreatedWebhookData = {
      customer: customer ? { id: customer.id, externalId: customer.externalId } : null,
      sale: toTrackedSale(sale),
      linkId: sale.linkId,
    };
    await this.send(organizationId, `sale.created.${sale.id}`, { type: 'sale.created', data }, sale.createdAt);
  }

  private async send(
    organizationId: string,
    eventId: string,
    event: { type: 'lead.created'; data: LeadCreatedWebhookData } | { type: 'sale.created'; data: SaleCreatedWebhookData },
    at: Date,
  ): Promise<void> {
    try {
      await this.queue.add(
        Queues.webhooks,
        'webhook.event',
        { eventId, organizationId, projectId: null, occurredAt: at.toISOString(), ...event },
        { jobId: eventId, timeoutMs: QUEUE_TIMEOUT_MS },
      );
    } catch (err) {
      this.logger.error({ err: String(err), eventId }, 'conversion webhook event not queued');
    }
  }
}
