import { ShapeAgrees } from '@dl/platform/http';
import { CustomerRecord, LeadRecord, RefundRecord, SaleRecord } from './conversion.records';
import { TrackLeadResponseDto, TrackRefundResponseDto, TrackSaleResponseDto } from './track-response.dto';

export function toTrackLeadResponse(customer: CustomerRecord, lead: LeadRecord) {
  return {
    customer: { id: customer.id, externalId: customer.externalId, linkId: customer.linkId, clickId: customer.clickId },
    lead: { id: lead.id, eventName: lead.eventName, createdAt: lead.createdAt.toISOString() },
  };
}

export function toTrackedSale(s: SaleRecord) {
  return {
    id: s.id,
    amount: s.amount,
    currency: s.currency,
    linkId: s.linkId,
    customerId: s.customerId,
    invoiceId: s.invoiceId,
    createdAt: s.createdAt.toISOString(),
  };
}

export function toTrackSaleResponse(s: SaleRecord) {
  return { sale: toTrackedSale(s) };
}

export function toTrackRefundResponse(r: RefundRecord, sale: SaleRecord) {
  return {
    refund: {
      id: r.id,
      saleId: sale.id,
      invoiceId: sale.invoiceId ?? '',
      amount: r.amount,
      currency: sale.currency,
      saleRefunded: sale.refunded,
      createdAt: r.createdAt.toISOString(),
    },
  };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const TRACK_SHAPES_AGREE: [
  ShapeAgrees<TrackLeadResponseDto, ReturnType<typeof toTrackLeadResponse>>,
  ShapeAgrees<TrackSaleResponseDto, ReturnType<typeof toTrackSaleResponse>>,
  ShapeAgrees<TrackRefundResponseDto, ReturnType<typeof toTrackRefundResponse>>,
] = [true, true, true];
