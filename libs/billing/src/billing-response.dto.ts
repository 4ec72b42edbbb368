import { ApiProperty } from '@nestjs/swagger';
import { Tier } from '@dl/platform/db';

/*
 * Billing's response shapes (decisions §21): each class is the type its mapper builds
 * (billing.mapper.ts checks they agree) and the OpenAPI schema.
 */

export class PlanPriceDto {
  @ApiProperty({ description: "In the currency's minor units" }) amount!: number;
  @ApiProperty({ example: 'usd' }) currency!: string;
}

/** A plan's limits (decisions §5); null means no limit. */
export class PlanLimitsDto {
  @ApiProperty({ type: Number, nullable: true }) links!: number | null;
  @ApiProperty({ type: Number, nullable: true }) apiKeys!: number | null;
  @ApiProperty({ type: Number, nullable: true }) clicksPerMonth!: number | null;
  @ApiProperty() requestsPerMinute!: number;
  @ApiProperty() rawClickRetentionDays!: number;
  @ApiProperty() eventAnalytics!: boolean;
  @ApiProperty({ type: Number, nullable: true }) domains!: number | null;
}

export class BillingPlanDto {
  @ApiProperty({ enum: Tier }) tier!: Tier;
  @ApiProperty({ type: PlanPriceDto }) month!: PlanPriceDto;
  @ApiProperty({ type: PlanPriceDto }) year!: PlanPriceDto;
  @ApiProperty({ type: PlanLimitsDto }) limits!: PlanLimitsDto;
}

/** GET /api/billing. */
export class BillingResponseDto {
  @ApiProperty({ enum: Tier }) tier!: Tier;
  @ApiProperty({ enum: ['none', 'active', 'trialing', 'past_due', 'canceled'] }) status!: 'none' | 'active' | 'trialing' | 'past_due' | 'canceled';
  @ApiProperty({ enum: ['month', 'year'], nullable: true, type: String }) interval!: 'month' | 'year' | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) currentPeriodEnd!: string | null;
  @ApiProperty() cancelAtPeriodEnd!: boolean;
  @ApiProperty({ type: [BillingPlanDto], description: 'FREE first (price 0), then every tier STRIPE_PRICES sells' }) plans!: BillingPlanDto[];
}

/** POST /api/billing/checkout and /portal: where to send the browser. */
export class BillingRedirectDto {
  @ApiProperty({ format: 'uri' }) url!: string;
}

export class InvoiceDto {
  @ApiProperty() id!: string;
  @ApiProperty({ type: String, nullable: true }) number!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'paid' }) status!: string | null;
  @ApiProperty({ description: 'Minor units' }) amountDue!: number;
  @ApiProperty({ description: 'Minor units' }) amountPaid!: number;
  @ApiProperty() currency!: string;
  @ApiProperty({ format: 'date-time' }) periodStart!: string;
  @ApiProperty({ format: 'date-time' }) periodEnd!: string;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) hostedInvoiceUrl!: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) pdfUrl!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** GET /api/billing/invoices. */
export class InvoiceListDto {
  @ApiProperty({ type: [InvoiceDto] }) invoices!: InvoiceDto[];
}
