import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI documentation of the click analytics responses (libs/analytics/src/analytics.types.ts). */
export class DateClicksDoc {
  @ApiProperty({ example: '2026-11-01', description: 'UTC day (YYYY-MM-DD)' }) date!: string;
  @ApiProperty() clicks!: number;
}

export class CountryClicksDoc {
  @ApiProperty({ example: 'US' }) countryCode!: string;
  @ApiProperty({ example: 'United States' }) country!: string;
  @ApiProperty() clicks!: number;
}

export class CityClicksDoc {
  @ApiProperty() city!: string;
  @ApiProperty() countryCode!: string;
  @ApiProperty() region!: string;
  @ApiProperty() clicks!: number;
}

export class RegionClicksDoc {
  @ApiProperty() region!: string;
  @ApiProperty() countryCode!: string;
  @ApiProperty() clicks!: number;
}

export class TimezoneClicksDoc {
  @ApiProperty() timezone!: string;
  @ApiProperty() clicks!: number;
}

export class DeviceClicksDoc {
  @ApiProperty() device!: string;
  @ApiProperty() clicks!: number;
}

export class PlatformClicksDoc {
  @ApiProperty() platform!: string;
  @ApiProperty() clicks!: number;
}

export class ProjectCountryClicksDoc {
  @ApiProperty() country!: string;
  @ApiProperty() clicks!: number;
}

export class VariantClicksDoc {
  @ApiProperty({ description: 'Index in the link\'s variants' }) variant!: number;
  @ApiProperty({ type: String, nullable: true, description: 'null for a variant the link no longer has' }) url!: string | null;
  @ApiProperty() clicks!: number;
}

export class RuleClicksDoc {
  @ApiProperty({ type: Number, nullable: true, description: 'Index in the link\'s redirectRules; null for clicks no rule chose' }) rule!: number | null;
  @ApiProperty() clicks!: number;
}

export class LinkAnalyticsResponseDoc {
  @ApiProperty() totalClicks!: number;
  @ApiProperty() uniqueClicks!: number;
  @ApiProperty({ type: [DateClicksDoc] }) clicksByDate!: DateClicksDoc[];
  @ApiProperty({ type: [CountryClicksDoc] }) clicksByCountry!: CountryClicksDoc[];
  @ApiProperty({ type: [CityClicksDoc] }) clicksByCity!: CityClicksDoc[];
  @ApiProperty({ type: [RegionClicksDoc] }) clicksByRegion!: RegionClicksDoc[];
  @ApiProperty({ type: [TimezoneClicksDoc] }) clicksByTimezone!: TimezoneClicksDoc[];
  @ApiProperty({ type: [DeviceClicksDoc] }) clicksByDevice!: DeviceClicksDoc[];
  @ApiProperty({ type: [PlatformClicksDoc] }) clicksByPlatform!: PlatformClicksDoc[];
  @ApiProperty({ type: [VariantClicksDoc], description: 'A/B variants (decisions §16); empty without variants' }) clicksByVariant!: VariantClicksDoc[];
  @ApiProperty({ type: [RuleClicksDoc], description: 'Redirect rules (decisions §16); empty without rules' }) clicksByRule!: RuleClicksDoc[];
}

export class ProjectAnalyticsResponseDoc {
  @ApiProperty() totalClicks!: number;
  @ApiProperty() uniqueClicks!: number;
  @ApiProperty({ type: [DateClicksDoc] }) clicksByDate!: DateClicksDoc[];
  @ApiProperty({ type: [ProjectCountryClicksDoc] }) clicksByCountry!: ProjectCountryClicksDoc[];
  @ApiProperty({ type: [DeviceClicksDoc] }) clicksByDevice!: DeviceClicksDoc[];
  @ApiProperty({ type: [PlatformClicksDoc] }) clicksByPlatform!: PlatformClicksDoc[];
}

export class TopLinkDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() shortCode!: string;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty() clicks!: number;
}

export class OverviewResponseDoc {
  @ApiProperty() totalLinks!: number;
  @ApiProperty() activeLinks!: number;
  @ApiProperty() totalClicks!: number;
  @ApiProperty() uniqueClicks!: number;
  @ApiProperty() clicksToday!: number;
  @ApiProperty({ type: [DateClicksDoc] }) clicksByDate!: DateClicksDoc[];
  @ApiProperty({ type: [TopLinkDoc] }) topLinks!: TopLinkDoc[];
}

const nullableString = { type: String, nullable: true } as const;
const nullableNumber = { type: Number, nullable: true } as const;

export class ClickEventResponseDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) linkId!: string;
  @ApiProperty({ format: 'date-time' }) clickedAt!: string;
  @ApiProperty(nullableString) ipAddress!: string | null;
  @ApiProperty(nullableString) userAgent!: string | null;
  @ApiProperty(nullableString) deviceType!: string | null;
  @ApiProperty(nullableString) platform!: string | null;
  @ApiProperty(nullableString) browser!: string | null;
  @ApiProperty(nullableString) browserVersion!: string | null;
  @ApiProperty(nullableString) os!: string | null;
  @ApiProperty(nullableString) osVersion!: string | null;
  @ApiProperty(nullableString) countryCode!: string | null;
  @ApiProperty(nullableString) countryName!: string | null;
  @ApiProperty(nullableString) region!: string | null;
  @ApiProperty(nullableString) city!: string | null;
  @ApiProperty(nullableString) timezone!: string | null;
  @ApiProperty(nullableNumber) latitude!: number | null;
  @ApiProperty(nullableNumber) longitude!: number | null;
  @ApiProperty(nullableString) utmSource!: string | null;
  @ApiProperty(nullableString) utmMedium!: string | null;
  @ApiProperty(nullableString) utmCampaign!: string | null;
  @ApiProperty(nullableString) utmTerm!: string | null;
  @ApiProperty(nullableString) utmContent!: string | null;
  @ApiProperty(nullableString) referrer!: string | null;
}

/** One click of GET /api/analytics/clicks/:linkId/export (JSON). */
export class ClickExportRowDoc extends ClickEventResponseDoc {
  @ApiProperty({ description: 'A crawler or bot (left out of analytics)' }) isBot!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: "Index of the link's A/B variant the visitor got" }) variantIndex!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Index of the redirect rule that chose the destination' }) ruleIndex!: number | null;
}
