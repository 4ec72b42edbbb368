import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Batcher } from '@dl/platform/batch';
import { isDataError } from '@dl/platform/db';
import { ValidationError } from '@dl/platform/http';
import { CustomerRecord, SaleSource } from './conversion.records';
import { ConversionEventsService, CreatedSale } from './conversion-events.service';
import { ClickNotFoundError, CustomerNotFoundError, SaleNotFoundError } from './conversions.errors';
import { LeadInput, LeadOutcome, LeadsRepository } from './leads.repository';
import { SaleInput, SaleOutcome, SalesRepository } from './sales.repository';
import { TrackLeadDto, TrackRefundDto, TrackSaleDto } from './track.dto';
import { toTrackLeadResponse, toTrackRefundResponse, toTrackSaleResponse } from './track.mapper';
import { TrackLeadResponseDto, TrackRefundResponseDto, TrackSaleResponseDto } from './track-response.dto';

/** An answer and whether it made something new (201) or found what was there (200). */
export interface Tracked<T> {
  created: boolean;
  body: T;
}

export const DEFAULT_SALE_EVENT = 'Purchase';
/** Sales per statement: bounds one batch's parameters and its time under a lock of the rollup rows. */
const SALE_BATCH = 500;

type FailedSale = { kind: 'failed'; err: unknown };
/** A sale's outcome in its batch, and the queueing of the batch's `sale.created` events. */
type Written = { outcome: SaleOutcome | FailedSale; events: Promise<void> };

/**
 * The tracking API (decisions §23). Sales share round trips: concurrent calls go into one
 * multi-row statement (group commit, as the SDK ingest path batches), and each call is answered
 * only once its batch committed, so a 201 means the row is durable. The batch's `sale.created`
 * events are queued together too (one `addBulk`), without holding the batch's write slot.
 */
@Injectable()
export class TrackService implements OnModuleDestroy {
  private readonly sales = new Batcher<SaleInput, Written>({
    write: (items) => this.writeSales(items),
    maxSize: SALE_BATCH,
    maxConcurrent: 2,
  });

  constructor(
    private readonly leads: LeadsRepository,
    private readonly salesRepo: SalesRepository,
    private readonly events: ConversionEventsService,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.sales.close();
  }

  /** A customer's lead, attributed to the organization's click (404 for an unknown or foreign click). */
  async lead(organizationId: string, dto: TrackLeadDto, now = new Date()): Promise<Tracked<TrackLeadResponseDto>> {
    const outcome = await this.leadFromClick(
      organizationId,
      {
        externalId: dto.customerExternalId,
        name: dto.customerName ?? null,
        email: dto.customerEmail ?? null,
        clickId: dto.clickId,
        eventName: dto.eventName.trim(),
        metadata: dto.metadata ?? null,
        source: 'api',
      },
      now,
    );
    if (!outcome) throw new ClickNotFoundError();
    return { created: outcome.created, body: toTrackLeadResponse(outcome.customer, outcome.lead) };
  }

  /**
   * The lead of a customer who came by `clickId` (the API, Stripe Checkout, a Shopify order): a
   * click older than its link's attribution window still makes the customer, without a link.
   * Null when the organization has no such click. `lead.created` goes out for a new lead.
   */
  async leadFromClick(
    organizationId: string,
    input: Pick<LeadInput, 'externalId' | 'name' | 'email' | 'eventName' | 'metadata' | 'source'> & { clickId: string },
    now = new Date(),
  ): Promise<LeadOutcome | null> {
    const click = await this.leads.findClick(organizationId, input.clickId);
    if (!click) return null;
    const inWindow = now.getTime() - click.clickedAt.getTime() <= click.attributionWindowHours * 3_600_000;
    const outcome = await this.leads.trackLead(organizationId, {
      ...input,
      clickId: click.clickId,
      linkId: inWindow ? click.linkId : null,
      clickedAt: click.clickedAt,
      countryCode: click.countryCode,
      utmCampaign: click.utmCampaign,
    });
    if (outcome.created) await this.events.leadCreated(organizationId, outcome.customer, outcome.lead);
    return outcome;
  }

  async sale(organizationId: string, dto: TrackSaleDto, source: SaleSource = 'api'): Promise<Tracked<TrackSaleResponseDto>> {
    const outcome = await this.store({
      organizationId,
      customerExternalId: dto.customerExternalId,
      linkId: null,
      countryCode: null,
      utmCampaign: null,
      amount: dto.amount,
      currency: dto.currency.toUpperCase(),
      eventName: dto.eventName?.trim() || DEFAULT_SALE_EVENT,
      invoiceId: dto.invoiceId ?? null,
      paymentProcessor: dto.paymentProcessor ?? null,
      source,
      metadata: dto.metadata ?? null,
      createdAt: new Date(),
    });
    if (outcome.kind === 'unknownCustomer') throw new CustomerNotFoundError();
    return { created: outcome.kind === 'created', body: toTrackSaleResponse(outcome.sale) };
  }

  /** A sale a payment integration reported for a known customer (no link of its own: attributed through the customer). */
  storeIntegrationSale(
    organizationId: string,
    customer: CustomerRecord,
    sale: { amount: number; currency: string; invoiceId: string | null; processor: 'stripe' | 'shopify'; at: Date },
  ): Promise<SaleOutcome> {
    return this.store({
      organizationId,
      customerExternalId: customer.externalId,
      linkId: null,
      countryCode: null,
      utmCampaign: null,
      amount: sale.amount,
      currency: sale.currency.toUpperCase(),
      eventName: DEFAULT_SALE_EVENT,
      invoiceId: sale.invoiceId,
      paymentProcessor: sale.processor,
      source: sale.processor,
      metadata: null,
      createdAt: sale.at,
    });
  }

  /**
   * Stores one sale through the shared batches (the integrations, pixel and SDK use it too);
   * answers once it is durable and, for a new one, its `sale.created` is queued.
   */
  async store(input: SaleInput): Promise<SaleOutcome> {
    const { outcome, events } = await this.sales.add(input);
    if (outcome.kind === 'failed') throw outcome.err;
    await events;
    return outcome;
  }

  async refund(organizationId: string, dto: TrackRefundDto): Promise<Tracked<TrackRefundResponseDto>> {
    const outcome = await this.salesRepo.refund(organizationId, dto.invoiceId, dto.amount ?? null, null);
    if (outcome.kind === 'unknownSale') throw new SaleNotFoundError();
    if (outcome.kind === 'tooMuch' || outcome.kind === 'nothing') {
      const remaining = outcome.kind === 'tooMuch' ? outcome.remaining : 0;
      throw new ValidationError({ amount: `Must not be more than what is left to refund (${remaining})` });
    }
    return { created: outcome.kind === 'created', body: toTrackRefundResponse(outcome.refund, outcome.sale) };
  }

  /**
   * One statement for the batch; when the database refuses its data, each sale is written alone
   * so one bad row fails only its own call. The new sales' events leave in one round trip that
   * the callers wait for, not the next batch.
   */
  private async writeSales(items: SaleInput[]): Promise<Written[]> {
    const outcomes = await this.insertSales(items);
    const created: CreatedSale[] = [];
    outcomes.forEach((o, n) => {
      if (o.kind === 'created') created.push({ sale: o.sale, customerExternalId: items[n].customerExternalId });
    });
    const events = this.events.salesCreated(created);
    return outcomes.map((outcome) => ({ outcome, events }));
  }

  private async insertSales(items: SaleInput[]): Promise<Array<SaleOutcome | FailedSale>> {
    try {
      return await this.salesRepo.insertBatch(items);
    } catch (err) {
      if (!isDataError(err) || items.length === 1) throw err;
      return Promise.all(
        items.map((item) =>
          this.salesRepo.insertBatch([item]).then(
            ([outcome]) => outcome,
            (e: unknown) => ({ kind: 'failed' as const, err: e }),
          ),
        ),
      );
    }
  }
}
