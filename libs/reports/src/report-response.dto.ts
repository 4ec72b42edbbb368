import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Tier } from '@dl/platform/db';

/*
 * The monthly report (spec "Monthly reports", decisions §11): the shape the builder makes, the
 * stored body, what the email renders and the OpenAPI schema of GET /api/reports/monthly/:period,
 * as one set of classes.
 */

/** A number of the month with last month's for comparison; deltaPct is null when prior is 0 or unknown. */
export class ReportKpiDto {
  @ApiProperty() value!: number;
  @ApiProperty({ type: Number, nullable: true, description: "Last month's value" }) prior!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Null when prior is 0 or unknown' }) deltaPct!: number | null;
}

export class ReportShareDto {
  @ApiProperty() label!: string;
  @ApiProperty() value!: number;
  @ApiProperty({ description: 'Fraction 0..1' }) share!: number;
}

export class ReportLinkShareDto extends ReportShareDto {
  @ApiProperty() sublabel!: string;
}

export class ReportVariantClicksDto {
  @ApiProperty({ description: "Index in the link's variants" }) variant!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Null for a variant since removed' }) url!: string | null;
  @ApiProperty() clicks!: number;
  @ApiProperty({ description: "Fraction 0..1 of the link's clicks" }) share!: number;
}

export class ReportRuleClicksDto {
  @ApiProperty({ type: Number, nullable: true, description: 'Index of the redirect rule; null for clicks no rule chose' }) rule!: number | null;
  @ApiProperty() clicks!: number;
  @ApiProperty({ description: "Fraction 0..1 of the link's clicks" }) share!: number;
}

/** A top link; A/B variants and redirect rules (decisions §16) only for links that have or had them. */
export class ReportTopLinkDto extends ReportLinkShareDto {
  @ApiPropertyOptional({ type: [ReportVariantClicksDto], description: 'Only for links with A/B variants (or clicks recorded with them)' })
  variants?: ReportVariantClicksDto[];
  @ApiPropertyOptional({ type: [ReportRuleClicksDto], description: 'Only for links with redirect rules (or clicks recorded with them)' })
  rules?: ReportRuleClicksDto[];
}

export class ReportCurrencyAmountDto {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty() amount!: number;
  @ApiProperty() prior!: number;
}

export class ReportOrganizationDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: ['FREE', 'PRO', 'BUSINESS', 'UNLIMITED'] }) tier!: Tier;
}

export class ReportPeriodDto {
  @ApiProperty({ enum: ['month'] }) type!: 'month';
  @ApiProperty({ format: 'date-time' }) start!: string;
  @ApiProperty({ format: 'date-time' }) end!: string;
  @ApiProperty() label!: string;
  @ApiProperty() priorLabel!: string;
}

export class ReportKpisDto {
  @ApiProperty({ type: ReportKpiDto }) clicks!: ReportKpiDto;
  @ApiProperty({ type: ReportKpiDto, nullable: true }) uniques!: ReportKpiDto | null;
  @ApiProperty({ type: ReportKpiDto, nullable: true }) installs!: ReportKpiDto | null;
  @ApiProperty({ type: ReportKpiDto, nullable: true }) sessions!: ReportKpiDto | null;
}

export class ReportDayClicksDto {
  @ApiProperty({ example: '2026-10-01' }) day!: string;
  @ApiProperty() clicks!: number;
}

export class ReportOtherLinksDto {
  @ApiProperty() count!: number;
  @ApiProperty() clicks!: number;
}

export class ReportInstallsDto {
  @ApiProperty({ type: [ReportShareDto] }) byPlatform!: ReportShareDto[];
  @ApiProperty() attributed!: number;
  @ApiProperty() attributionRate!: number;
}

export class ReportPixelDto {
  @ApiProperty({ type: ReportKpiDto }) pageviews!: ReportKpiDto;
  @ApiProperty({ type: ReportKpiDto }) conversions!: ReportKpiDto;
  @ApiProperty({ description: 'Conversions tied to a link click (dl_click)' }) attributedConversions!: number;
  @ApiProperty({ description: 'Conversions / pageviews, 0..1' }) conversionRate!: number;
  @ApiProperty({ type: [ReportCurrencyAmountDto] }) value!: ReportCurrencyAmountDto[];
  @ApiProperty({ type: [ReportShareDto] }) topPages!: ReportShareDto[];
}

export class ReportEventsDto {
  @ApiProperty({ type: ReportKpiDto }) total!: ReportKpiDto;
  @ApiProperty({ type: [ReportLinkShareDto] }) byName!: ReportLinkShareDto[];
  @ApiProperty({ type: [ReportCurrencyAmountDto] }) revenue!: ReportCurrencyAmountDto[];
  @ApiProperty() conversions!: number;
  @ApiProperty({ type: Number, nullable: true }) perInstall!: number | null;
}

/** A link's sales and net revenue in one currency (minor units). */
export class ReportConversionLinkDto {
  @ApiProperty() label!: string;
  @ApiProperty() sublabel!: string;
  @ApiProperty({ type: 'integer' }) sales!: number;
  @ApiProperty({ type: 'integer', description: 'Amount − refunded, minor units' }) net!: number;
}

/** Revenue of one currency (integers in its minor units; currencies are never summed together). */
export class ReportConversionRevenueDto {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ type: 'integer' }) sales!: number;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ type: 'integer' }) refunded!: number;
  @ApiProperty({ type: 'integer', description: 'amount − refunded' }) net!: number;
  @ApiProperty({ type: 'integer', description: "Last month's net" }) prior!: number;
  @ApiProperty({ type: [ReportConversionLinkDto], description: 'Links with the highest net revenue in this currency (at most 5)' })
  topLinks!: ReportConversionLinkDto[];
}

/** Leads and sales tracked through the conversions API, Stripe and Shopify (decisions §23). */
export class ReportConversionsDto {
  @ApiProperty({ type: ReportKpiDto }) leads!: ReportKpiDto;
  @ApiProperty({ type: ReportKpiDto }) sales!: ReportKpiDto;
  @ApiProperty({ type: [ReportConversionRevenueDto], description: 'Per currency, most sales first (amounts of different currencies are not compared)' }) revenue!: ReportConversionRevenueDto[];
}

export class ReportHousekeepingDto {
  @ApiProperty({ type: [String] }) linksCreated!: string[];
  @ApiProperty({ type: [String] }) linksExpired!: string[];
  @ApiProperty() linksDisabled!: number;
  @ApiProperty() linksWithStoreUrls!: number;
}

export class ReportInsightActionDto {
  @ApiProperty() title!: string;
  @ApiProperty() body!: string;
}

export class ReportInsightsDto {
  @ApiProperty() headline!: string;
  @ApiProperty({ type: [String] }) links!: string[];
  @ApiProperty({ type: [String] }) events!: string[];
  @ApiProperty({ type: [ReportInsightActionDto] }) actions!: ReportInsightActionDto[];
}

export class MonthlyReportDto {
  @ApiProperty({ type: ReportOrganizationDto }) organization!: ReportOrganizationDto;
  @ApiProperty({ type: ReportPeriodDto }) period!: ReportPeriodDto;
  @ApiProperty({ type: ReportKpisDto }) kpis!: ReportKpisDto;
  @ApiProperty({ type: [ReportDayClicksDto] }) daily!: ReportDayClicksDto[];
  @ApiProperty({ type: ReportDayClicksDto, nullable: true }) bestDay!: ReportDayClicksDto | null;
  @ApiProperty({ type: [ReportTopLinkDto] }) topLinks!: ReportTopLinkDto[];
  @ApiProperty({ type: ReportOtherLinksDto }) otherLinks!: ReportOtherLinksDto;
  @ApiProperty() zeroClickLinks!: number;
  @ApiProperty({ type: [ReportShareDto] }) sources!: ReportShareDto[];
  @ApiProperty({ type: [ReportShareDto] }) countries!: ReportShareDto[];
  @ApiProperty({ type: [ReportShareDto] }) devices!: ReportShareDto[];
  @ApiProperty({ type: ReportInstallsDto, nullable: true }) installs!: ReportInstallsDto | null;
  @ApiProperty({ type: ReportPixelDto, nullable: true }) pixel!: ReportPixelDto | null;
  @ApiProperty({ type: ReportEventsDto, nullable: true }) events!: ReportEventsDto | null;
  @ApiPropertyOptional({
    type: ReportConversionsDto,
    nullable: true,
    description: 'Null without a paid plan or without any conversion recorded; absent from reports stored before the section existed',
  })
  conversions?: ReportConversionsDto | null;
  @ApiProperty({ type: ReportHousekeepingDto }) housekeeping!: ReportHousekeepingDto;
  @ApiProperty({ type: ReportInsightsDto }) insights!: ReportInsightsDto;
  @ApiProperty({ format: 'date-time' }) generatedAt!: string;
}

export class MonthlyReportListItemDto {
  @ApiProperty({ example: '2026-10' }) period!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) generatedAt!: string | null;
  @ApiProperty() live!: boolean;
}

export class MonthlyReportListDto {
  @ApiProperty({ type: [MonthlyReportListItemDto] }) reports!: MonthlyReportListItemDto[];
}
