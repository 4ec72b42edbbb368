import { Injectable, Logger } from '@nestjs/common';
import { LeadCreatedWebhookData, Queues, JobQueue, SaleCreatedWebhookData, WebhookEventJob } from '@dl/platform/queue';
import { CustomerRecord, LeadRecord, SaleRecord } from './conversion.records';
import { toTrackedSale, toTrackLeadResponse } from './track.mapper';

/** How long queueing an event may take before the answer goes out without it. */
const QUEUE_TIMEOUT_MS = 2_000;

/** A stored sale and the external id of its customer (null for pixel and SDK sales). */
export interface CreatedSale {
  sale: SaleRecord;
  customerExternalId: string | null;
}

type ConversionEvent = { type: 'lead.created'; data: LeadCreatedWebhookData } | { type: 'sale.created'; data: SaleCreatedWebhookData };

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
    await this.send([job(organizationId, `lead.created.${lead.id}`, { type: 'lead.created', data }, lead.createdAt)]);
  }

  /**
   * `sale.created` of a batch's new sales in one round trip. The customer is the one the sale
   * row was joined to (its id) under the external id the sale named: no read of its own.
   */
  async salesCreated(created: readonly CreatedSale[]): Promise<void> {
    await this.send(
      created.map(({ sale, customerExternalId }) => {
        const data: SaleCreatedWebhookData = {
          customer: sale.customerId && customerExternalId !== null ? { id: sale.customerId, externalId: customerExternalId } : null,
          sale: toTrackedSale(sale),
          linkId: sale.linkId,
        };
        return job(sale.organizationId, `sale.created.${sale.id}`, { type: 'sale.created', data }, sale.createdAt);
      }),
    );
  }

  private async send(jobs: Array<{ payload: WebhookEventJob; opts: { jobId: string } }>): Promise<void> {
    if (!jobs.length) return;
    try {
      await this.queue.addBulk(Queues.webhooks, 'webhook.event', jobs, QUEUE_TIMEOUT_MS);
    } catch (err) {
      this.logger.error({ err: String(err), eventIds: jobs.map((j) => j.opts.jobId) }, 'conversion webhook events not queued');
    }
  }
}

function job(organizationId: string, eventId: string, event: ConversionEvent, at: Date): { payload: WebhookEventJob; opts: { jobId: string } } {
  return { payload: { eventId, organizationId, projectId: null, occurredAt: at.toISOString(), ...event }, opts: { jobId: eventId } };
}
