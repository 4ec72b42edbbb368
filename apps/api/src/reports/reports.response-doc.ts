import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** OpenAPI documentation of the monthly report (libs/reports/src/report.types.ts). */
export class ReportKpiDoc {
  @ApiProperty() value!: number;
  @ApiProperty({ type: Number, nullable: true, description: "Last month's value" }) prior!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Null when prior is 0 or unknown' }) deltaPct!: number | null;
}

export class ReportShareDoc {
  @ApiProperty() label!: string;
  @ApiProperty() value!: number;
  @ApiProperty({ description: 'Fraction 0..1' }) share!: number;
}

export class ReportLinkShareDoc extends ReportShareDoc {
  @ApiProperty() sublabel!: string;
}

export class ReportVariantClicksDoc {
  @ApiProperty({ description: "Index in the link's variants" }) variant!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Null for a variant since removed' }) url!: string | null;
  @ApiProperty() clicks!: number;
  @ApiProperty({ description: "Fraction 0..1 of the link's clicks" }) share!: number;
}

export class ReportRuleClicksDoc {
  @ApiProperty({ type: Number, nullable: true, description: 'Index of the redirect rule; null for clicks no rule chose' }) rule!: number | null;
  @ApiProperty() clicks!: number;
  @ApiProperty({ description: "Fraction 0..1 of the link's clicks" }) share!: number;
}

export class ReportTopLinkDoc extends ReportLinkShareDoc {
  @ApiPropertyOptional({ type: [ReportVariantClicksDoc], description: 'Only for links with A/B variants (or clicks recorded with them)' })
  variants?: ReportVariantClicksDoc[];
  @ApiPropertyOptional({ type: [ReportRuleClicksDoc], description: 'Only for links with redirect rules (or clicks recorded with them)' })
  rules?: ReportRuleClicksDoc[];
}

export class ReportCurrencyAmountDoc {
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty() amount!: number;
  @ApiProperty() prior!: number;
}

export class ReportOrganizationDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: ['FREE', 'PRO', 'BUSINESS', 'UNLIMITED'] }) tier!: string;
}

export class ReportPeriodDoc {
  @ApiProperty({ enum: ['month'] }) type!: 'month';
  @ApiProperty({ format: 'date-time' }) start!: string;
  @ApiProperty({ format: 'date-time' }) end!: string;
  @ApiProperty() label!: string;
  @ApiProperty() priorLabel!: string;
}

export class ReportKpisDoc {
  @ApiProperty({ type: ReportKpiDoc }) clicks!: ReportKpiDoc;
  @ApiProperty({ type: ReportKpiDoc, nullable: true }) uniques!: ReportKpiDoc | null;
  @ApiProperty({ type: ReportKpiDoc, nullable: true }) installs!: ReportKpiDoc | null;
  @ApiProperty({ type: ReportKpiDoc, nullable: true }) sessions!: ReportKpiDoc | null;
}

export class ReportDayClicksDoc {
  @ApiProperty({ example: '2026-10-01' }) day!: string;
  @ApiProperty() clicks!: number;
}

export class ReportOtherLinksDoc {
  @ApiProperty() count!: number;
  @ApiProperty() clicks!: number;
}

export class ReportInstallsDoc {
  @ApiProperty({ type: [ReportShareDoc] }) byPlatform!: ReportShareDoc[];
  @ApiProperty() attributed!: number;
  @ApiProperty() attributionRate!: number;
}

export class ReportPixelDoc {
  @ApiProperty({ type: ReportKpiDoc }) pageviews!: ReportKpiDoc;
  @ApiProperty({ type: ReportKpiDoc }) conversions!: ReportKpiDoc;
  @ApiProperty({ description: 'Conversions tied to a link click (dl_click)' }) attributedConversions!: number;
  @ApiProperty({ description: 'Conversions / pageviews, 0..1' }) conversionRate!: number;
  @ApiProperty({ type: [ReportCurrencyAmountDoc] }) value!: ReportCurrencyAmountDoc[];
  @ApiProperty({ type: [ReportShareDoc] }) topPages!: ReportShareDoc[];
}

export class ReportEventsDoc {
  @ApiProperty({ type: ReportKpiDoc }) total!: ReportKpiDoc;
  @ApiProperty({ type: [ReportLinkShareDoc] }) byName!: ReportLinkShareDoc[];
  @ApiProperty({ type: [ReportCurrencyAmountDoc] }) revenue!: ReportCurrencyAmountDoc[];
  @ApiProperty() conversions!: number;
  @ApiProperty({ type: Number, nullable: true }) perInstall!: number | null;
}

export class ReportHousekeepingDoc {
  @ApiProperty({ type: [String] }) linksCreated!: string[];
  @ApiProperty({ type: [String] }) linksExpired!: string[];
  @ApiProperty() linksDisabled!: number;
  @ApiProperty() linksWithStoreUrls!: number;
}

export class ReportInsightActionDoc {
  @ApiProperty() title!: string;
  @ApiProperty() body!: string;
}

export class ReportInsightsDoc {
  @ApiProperty() headline!: string;
  @ApiProperty({ type: [String] }) links!: string[];
  @ApiProperty({ type: [String] }) events!: string[];
  @ApiProperty({ type: [ReportInsightActionDoc] }) actions!: ReportInsightActionDoc[];
}

export class MonthlyReportDoc {
  @ApiProperty({ type: ReportOrganizationDoc }) organization!: ReportOrganizationDoc;
  @ApiProperty({ type: ReportPeriodDoc }) period!: ReportPeriodDoc;
  @ApiProperty({ type: ReportKpisDoc }) kpis!: ReportKpisDoc;
  @ApiProperty({ type: [ReportDayClicksDoc] }) daily!: ReportDayClicksDoc[];
  @ApiProperty({ type: ReportDayClicksDoc, nullable: true }) bestDay!: ReportDayClicksDoc | null;
  @ApiProperty({ type: [ReportTopLinkDoc] }) topLinks!: ReportTopLinkDoc[];
  @ApiProperty({ type: ReportOtherLinksDoc }) otherLinks!: ReportOtherLinksDoc;
  @ApiProperty() zeroClickLinks!: number;
  @ApiProperty({ type: [ReportShareDoc] }) sources!: ReportShareDoc[];
  @ApiProperty({ type: [ReportShareDoc] }) countries!: ReportShareDoc[];
  @ApiProperty({ type: [ReportShareDoc] }) devices!: ReportShareDoc[];
  @ApiProperty({ type: ReportInstallsDoc, nullable: true }) installs!: ReportInstallsDoc | null;
  @ApiProperty({ type: ReportPixelDoc, nullable: true }) pixel!: ReportPixelDoc | null;
  @ApiProperty({ type: ReportEventsDoc, nullable: true }) events!: ReportEventsDoc | null;
  @ApiProperty({ type: ReportHousekeepingDoc }) housekeeping!: ReportHousekeepingDoc;
  @ApiProperty({ type: ReportInsightsDoc }) insights!: ReportInsightsDoc;
  @ApiProperty({ format: 'date-time' }) generatedAt!: string;
}

export class MonthlyReportListItemDoc {
  @ApiProperty({ example: '2026-10' }) period!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) generatedAt!: string | null;
  @ApiProperty() live!: boolean;
}

export class MonthlyReportListDoc {
  @ApiProperty({ type: [MonthlyReportListItemDoc] }) reports!: MonthlyReportListItemDoc[];
}
