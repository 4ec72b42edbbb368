import { Query, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import {
  CONVERSIONS_CSV_HEADER,
  ConversionsAnalyticsService,
  ConversionsQueryDto,
  ConversionsSummaryDto,
  CustomerDetailDto,
  CustomerListDto,
  CustomersQueryDto,
  CustomersService,
} from '@dl/conversions';
import { ApiController, Endpoint, UuidParam } from '@dl/platform/http';

const GATE = 'Conversions require a paid plan';

/** Conversion analytics (decisions §23): any role, paid plans. */
@ApiController('api/analytics/conversions', 'conversions', Auth(Permissions.conversionsRead))
export class ConversionsAnalyticsController {
  constructor(private readonly conversions: ConversionsAnalyticsService) {}

  @Endpoint.get({
    summary: 'Funnel (clicks → leads → sales), revenue per currency and rows grouped by day, link, campaign, country or source',
    response: ConversionsSummaryDto,
    errors: { 400: 'Validation error (bad query)', 403: GATE },
  })
  summary(@CurrentPrincipal() p: Principal, @Query() q: ConversionsQueryDto): Promise<ConversionsSummaryDto> {
    return this.conversions.summary(p.organizationId, q);
  }

  @Endpoint.get('export', {
    summary: 'The window’s leads and sales as CSV (streamed), with the same filters',
    success: { description: 'Attachment `conversions.csv`', content: { 'text/csv': { schema: { type: 'string', example: `${CONVERSIONS_CSV_HEADER}\n` } } } },
    errors: { 400: 'Validation error (bad query)', 403: GATE },
  })
  export(@CurrentPrincipal() p: Principal, @Query() q: ConversionsQueryDto): StreamableFile {
    return new StreamableFile(this.conversions.export(p.organizationId, q), { type: 'text/csv; charset=utf-8', disposition: 'attachment; filename="conversions.csv"' });
  }
}

@ApiController('api/customers', 'conversions', Auth(Permissions.conversionsRead))
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Endpoint.get({
    summary: 'Customers, newest first, with their link, first lead, sales and net revenue per currency',
    response: CustomerListDto,
    success: { headers: { 'X-Next-Cursor': { description: 'Cursor of the next page, when there is one', schema: { type: 'string' } } } },
    errors: { 400: 'Validation error (bad query)', 403: GATE },
  })
  async list(@CurrentPrincipal() p: Principal, @Query() q: CustomersQueryDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<CustomerListDto> {
    const page = await this.customers.list(p.organizationId, q);
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return page.body;
  }

  @Endpoint.get(':id', {
    summary: 'A customer and their leads, sales and refunds in time order',
    response: CustomerDetailDto,
    errors: { 400: 'Validation error (bad id)', 403: GATE, 404: 'Customer not found' },
  })
  get(@CurrentPrincipal() p: Principal, @UuidParam() id: string): Promise<CustomerDetailDto> {
    return this.customers.get(p.organizationId, id);
  }
}
