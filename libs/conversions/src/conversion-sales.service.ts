import { Injectable } from '@nestjs/common';
import { isCurrency } from './track.dto';
import { minorDigits } from './money';
import { TrackService } from './track.service';

/** A revenue event of the pixel or the SDK, as the ingest worker stored it. */
export interface RevenueEvent {
  organizationId: string;
  /** The event's id (made at the edge): the sale's invoice id is made from it, so a replayed job counts once. */
  id: string;
  linkId: string | null;
  /** Major units, as the pixel and SDK send them (49.99). */
  value: number;
  currency: string;
  at: Date;
  source: 'pixel' | 'sdk';
}

export const PIXEL_SALE_EVENT = 'Pixel conversion';
export const SDK_SALE_EVENT = 'In-app revenue';

/**
 * Pixel `conversion` and SDK `revenue` events are sales too (decisions §23), with their source.
 * Only those tied to a link count: a conversion no link brought is not a link's revenue.
 */
@Injectable()
export class ConversionSalesService {
  constructor(private readonly track: TrackService) {}

  async record(event: RevenueEvent): Promise<boolean> {
    const currency = event.currency.toUpperCase();
    if (!event.linkId || !isCurrency(currency) || !Number.isFinite(event.value) || event.value <= 0) return false;
    const amount = Math.round(event.value * 10 ** minorDigits(currency));
    if (amount > 1e12) return false;
    const outcome = await this.track.store({
      organizationId: event.organizationId,
      customerExternalId: null,
      linkId: event.linkId,
      countryCode: null,
      utmCampaign: null,
      amount,
      currency,
      eventName: event.source === 'pixel' ? PIXEL_SALE_EVENT : SDK_SALE_EVENT,
      invoiceId: `${event.source}_${event.id}`,
      paymentProcessor: null,
      source: event.source,
      metadata: null,
      createdAt: event.at,
    });
    return outcome.kind === 'created';
  }
}
