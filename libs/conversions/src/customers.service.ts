import { Injectable } from '@nestjs/common';
import { ValidationError } from '@dl/platform/http';
import { CustomerNotFoundError } from './conversions.errors';
import { CustomersQueryDto } from './conversions-query.dto';
import { CustomerDetailDto, CustomerListDto, CustomerListItemDto } from './conversions-response.dto';
import { CustomerRow, CustomerSales, CustomersRepository, decodeCursor, encodeCursor } from './customers.repository';

const DEFAULT_LIMIT = 50;

function toItem(c: CustomerRow, s: CustomerSales | undefined): CustomerListItemDto {
  return {
    id: c.id,
    externalId: c.externalId,
    name: c.name,
    email: c.email,
    linkId: c.linkId,
    shortCode: c.shortCode,
    clickedAt: c.clickedAt?.toISOString() ?? null,
    firstLeadAt: c.firstLeadAt?.toISOString() ?? null,
    sales: s?.sales ?? 0,
    revenue: s?.revenue ?? [],
  };
}

/** GET /api/customers and /api/customers/:id (decisions §23). */
@Injectable()
export class CustomersService {
  constructor(private readonly repo: CustomersRepository) {}

  async list(organizationId: string, q: CustomersQueryDto): Promise<{ body: CustomerListDto; nextCursor: string | null }> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const after = q.cursor ? decodeCursor(q.cursor) : null;
    if (q.cursor && !after) throw new ValidationError({ cursor: 'Must be a cursor from X-Next-Cursor' });
    const rows = await this.repo.list(organizationId, { search: q.search?.trim(), linkId: q.linkId, after, limit });
    const page = rows.slice(0, limit);
    const sales = await this.repo.sales(organizationId, page.map((c) => c.id));
    return {
      body: { customers: page.map((c) => toItem(c, sales.get(c.id))) },
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
    };
  }

  async get(organizationId: string, id: string): Promise<CustomerDetailDto> {
    const customer = await this.repo.find(organizationId, id);
    if (!customer) throw new CustomerNotFoundError();
    const [sales, events] = await Promise.all([this.repo.sales(organizationId, [id]), this.repo.events(organizationId, id)]);
    return {
      ...toItem(customer, sales.get(id)),
      events: events.map((e) => ({ ...e, createdAt: e.createdAt.toISOString() })),
    };
  }
}
