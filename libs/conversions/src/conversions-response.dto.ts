import { ApiProperty } from '@nestjs/swagger';
import { LinkAnalyticsResponseDto } from '@dl/analytics';

/*
 * Conversion analytics and customers (decisions §23). Amounts are integers in each currency's
 * minor units; currencies are never summed together.
 */

export class CurrencyRevenueDto {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ type: 'integer' }) refunded!: number;
  @ApiProperty({ type: 'integer', description: 'amount − refunded' }) net!: number;
}

export class CurrencyNetDto {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: 'integer' }) net!: number;
}

export class ConversionRowDto {
  @ApiProperty({ description: 'The day, link id, campaign, country code or source' }) key!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Null for `source` rows (a click has no conversion source)' }) clicks!: number | null;
  @ApiProperty({ type: 'integer' }) leads!: number;
  @ApiProperty({ type: 'integer' }) sales!: number;
  @ApiProperty({ type: [CurrencyNetDto] }) revenue!: CurrencyNetDto[];
}

/** GET /api/analytics/conversions */
export class ConversionsSummaryDto {
  @ApiProperty({ type: 'integer' }) clicks!: number;
  @ApiProperty({ type: 'integer' }) leads!: number;
  @ApiProperty({ type: 'integer' }) sales!: number;
  @ApiProperty({ type: 'integer', description: 'Customers first seen in the window' }) customers!: number;
  @ApiProperty({ type: [CurrencyRevenueDto] }) revenue!: CurrencyRevenueDto[];
  @ApiProperty({ type: Number, nullable: true, description: 'customers ÷ clicks (0-1); null without clicks' }) clickToLead!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'paying customers ÷ customers (0-1); null without customers' }) leadToSale!: number | null;
  @ApiProperty({ type: [ConversionRowDto] }) rows!: ConversionRowDto[];
}

/** Conversions of one link (in its analytics). */
export class LinkConversionsDto {
  @ApiProperty({ type: 'integer' }) leads!: number;
  @ApiProperty({ type: 'integer' }) sales!: number;
  @ApiProperty({ type: [CurrencyNetDto] }) revenue!: CurrencyNetDto[];
}

export class CustomerListItemDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() externalId!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) linkId!: string | null;
  @ApiProperty({ type: String, nullable: true }) shortCode!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) clickedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) firstLeadAt!: string | null;
  @ApiProperty({ type: 'integer' }) sales!: number;
  @ApiProperty({ type: [CurrencyNetDto] }) revenue!: CurrencyNetDto[];
}

/** GET /api/customers */
export class CustomerListDto {
  @ApiProperty({ type: [CustomerListItemDto] }) customers!: CustomerListItemDto[];
}

export class CustomerEventDto {
  @ApiProperty({ enum: ['lead', 'sale', 'refund'] }) type!: 'lead' | 'sale' | 'refund';
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Leads and sales' }) eventName!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) amount!: number | null;
  @ApiProperty({ type: String, nullable: true }) currency!: string | null;
  @ApiProperty({ type: String, nullable: true }) invoiceId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Sales: api, stripe, shopify, pixel or sdk' }) source!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** GET /api/customers/:id */
export class CustomerDetailDto extends CustomerListItemDto {
  @ApiProperty({ type: [CustomerEventDto], description: 'Leads, sales and refunds in time order' }) events!: CustomerEventDto[];
}

/** GET /api/analytics/links/:linkId: the link's click analytics plus its conversions in the same window. */
export class LinkAnalyticsWithConversionsDto extends LinkAnalyticsResponseDto {
  @ApiProperty({ type: 'integer' }) leads!: number;
  @ApiProperty({ type: 'integer' }) sales!: number;
  @ApiProperty({ type: [CurrencyNetDto], description: 'Net revenue per currency (minor units)' }) revenue!: CurrencyNetDto[];
}
