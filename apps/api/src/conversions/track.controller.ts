import { Body, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import {
  TrackLeadDto,
  TrackLeadResponseDto,
  TrackRefundDto,
  TrackRefundResponseDto,
  TrackSaleDto,
  TrackSaleResponseDto,
  TrackService,
  Tracked,
} from '@dl/conversions';
import { ApiController, CompiledBodyPipe, Endpoint } from '@dl/platform/http';

/** What every tracking route may answer besides its own 404 (decisions §23). */
const trackErrors = (notFound: string, invalid = 'Validation error') => ({
  400: invalid,
  403: 'Your role does not allow this action, or Conversions require a paid plan',
  404: notFound,
  503: 'Storage unavailable: retry',
});

/*
 * Bodies are checked by their DTOs' rules compiled once (the same verdicts and messages as the
 * global pipe, without class-transformer and class-validator per call: a sale is a hot route);
 * `Readonly<>` gives the parameter a design type the global pipe leaves alone.
 */
const leadBody = new CompiledBodyPipe(TrackLeadDto);
const saleBody = new CompiledBodyPipe(TrackSaleDto);
const refundBody = new CompiledBodyPipe(TrackRefundDto);

/** 201 for a new row, 200 for the one already tracked (idempotent retries). */
function answer<T>(reply: FastifyReply, tracked: Tracked<T>): T {
  reply.status(tracked.created ? 201 : 200);
  return tracked.body;
}

/**
 * The tracking API (decisions §23): a `dl_` key or a session of a Member and above, on a paid
 * plan. Like SDK and pixel ingestion it is not counted against the plan's requests a minute: a
 * shop's checkouts must not wait behind its dashboard (docs/decisions/conversions.md).
 */
@ApiController('api/track', 'conversions', Auth(Permissions.conversionsWrite, { rateLimit: false }))
export class TrackController {
  constructor(private readonly track: TrackService) {}

  @Endpoint.post('lead', {
    summary: 'Track a lead: the customer (by your own id) and the click that brought them',
    description: '201 with a new lead; 200 with the existing one when this customer already has a lead of this event name.',
    status: 201,
    body: TrackLeadDto,
    response: TrackLeadResponseDto,
    errors: trackErrors('Click not found'),
  })
  async lead(@CurrentPrincipal() p: Principal, @Body(leadBody) dto: Readonly<TrackLeadDto>, @Res({ passthrough: true }) reply: FastifyReply): Promise<TrackLeadResponseDto> {
    return answer(reply, await this.track.lead(p.organizationId, dto));
  }

  @Endpoint.post('sale', {
    summary: "Track a sale of a customer, in the currency's minor units",
    description: '201 with a new sale (stored durably); 200 with the existing sale of a repeated `invoiceId`.',
    status: 201,
    body: TrackSaleDto,
    response: TrackSaleResponseDto,
    errors: trackErrors('Customer not found'),
  })
  async sale(@CurrentPrincipal() p: Principal, @Body(saleBody) dto: Readonly<TrackSaleDto>, @Res({ passthrough: true }) reply: FastifyReply): Promise<TrackSaleResponseDto> {
    return answer(reply, await this.track.sale(p.organizationId, dto));
  }

  @Endpoint.post('refund', {
    summary: 'Refund a sale by its invoice id (by default what is left of it)',
    status: 201,
    body: TrackRefundDto,
    response: TrackRefundResponseDto,
    errors: trackErrors('Sale not found', 'Validation error (more than was paid)'),
  })
  async refund(@CurrentPrincipal() p: Principal, @Body(refundBody) dto: Readonly<TrackRefundDto>, @Res({ passthrough: true }) reply: FastifyReply): Promise<TrackRefundResponseDto> {
    return answer(reply, await this.track.refund(p.organizationId, dto));
  }
}
