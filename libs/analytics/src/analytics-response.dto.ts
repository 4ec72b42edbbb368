import { ApiProperty } from '@nestjs/swagger';

/*
 * Response shapes of link, project and overview analytics and of the click list and export
 * (spec "Link analytics summary", decisions §8): each class is the type its mapper builds
 * (analytics.mapper.ts checks they agree) and the OpenAPI schema.
 */

export class DateClicksDto {
  @ApiProperty({ example: '2026-11-01', description: 'UTC day (YYYY-MM-DD)' }) date!: string;
  @ApiProperty() clicks!: number;
}

export class CountryClicksDto {
  @ApiProperty({ example: 'US' }) countryCode!: string;
  @ApiProperty({ example: 'United States' }) country!: string;
  @ApiProperty() clicks!: number;
}

export class CityClicksDto {
  @ApiProperty() city!: string;
  @ApiProperty() countryCode!: string;
  @ApiProperty() region!: string;
  @ApiProperty() clicks!: number;
}

export class RegionClicksDto {
  @ApiProperty() region!: string;
  @ApiProperty() countryCode!: string;
  @ApiProperty() clicks!: number;
}

export class TimezoneClicksDto {
  @ApiProperty() timezone!: string;
  @ApiProperty() clicks!: number;
}

export class DeviceClicksDto {
  @ApiProperty() device!: string;
  @ApiProperty() clicks!: number;
}

export class PlatformClicksDto {
  @ApiProperty() platform!: string;
  @ApiProperty() clicks!: number;
}

export class ProjectCountryClicksDto {
  @ApiProperty() country!: string;
  @ApiProperty() clicks!: number;
}

export class VariantClicksDto {
  @ApiProperty({ description: 'Index in the link\'s variants' }) variant!: number;
  @ApiProperty({ type: String, nullable: true, description: 'null for a variant the link no longer has' }) url!: string | null;
  @ApiProperty() clicks!: number;
}

export class RuleClicksDto {
  @ApiProperty({ type: Number, nullable: true, description: 'Index in the link\'s redirectRules; null for clicks no rule chose' }) rule!: number | null;
  @ApiProperty() clicks!: number;
}

export class LinkAnalyticsResponseDto {
  @ApiProperty() totalClicks!: number;
  @ApiProperty() uniqueClicks!: number;
  @ApiProperty({ type: [DateClicksDto] }) clicksByDate!: DateClicksDto[];
  @ApiProperty({ type: [CountryClicksDto] }) clicksByCountry!: CountryClicksDto[];
  @ApiProperty({ type: [CityClicksDto] }) clicksByCity!: CityClicksDto[];
  @ApiProperty({ type: [RegionClicksDto] }) clicksByRegion!: RegionClicksDto[];
  @ApiProperty({ type: [TimezoneClicksDto] }) clicksByTimezone!: TimezoneClicksDto[];
  @ApiProperty({ type: [DeviceClicksDto] }) clicksByDevice!: DeviceClicksDto[];
  @ApiProperty({ type: [PlatformClicksDto] }) clicksByPlatform!: PlatformClicksDto[];
  @ApiProperty({ type: [VariantClicksDto], description: 'A/B variants (decisions §16); empty without variants' }) clicksByVariant!: VariantClicksDto[];
  @ApiProperty({ type: [RuleClicksDto], description: 'Redirect rules (decisions §16); empty without rules' }) clicksByRule!: RuleClicksDto[];
}

export class ProjectAnalyticsResponseDto {
  @ApiProperty() totalClicks!: number;
  @ApiProperty() uniqueClicks!: number;
  @ApiProperty({ type: [DateClicksDto] }) clicksByDate!: DateClicksDto[];
  @ApiProperty({ type: [ProjectCountryClicksDto] }) clicksByCountry!: ProjectCountryClicksDto[];
  @ApiProperty({ type: [DeviceClicksDto] }) clicksByDevice!: DeviceClicksDto[];
  @ApiProperty({ type: [PlatformClicksDto] }) clicksByPlatform!: PlatformClicksDto[];
}

export class TopLinkDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() shortCode!: string;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty() clicks!: number;
}

export class OverviewResponseDto {
  @ApiProperty() totalLinks!: number;
  @ApiProperty() activeLinks!: number;
  @ApiProperty() totalClicks!: number;
  @ApiProperty() uniqueClicks!: number;
  @ApiProperty() clicksToday!: number;
  @ApiProperty({ type: [DateClicksDto] }) clicksByDate!: DateClicksDto[];
  @ApiProperty({ type: [TopLinkDto] }) topLinks!: TopLinkDto[];
}

const nullableString = { type: String, nullable: true } as const;
const nullableNumber = { type: Number, nullable: true } as const;

export class ClickEventResponseDto {
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
export class ClickExportRowDto extends ClickEventResponseDto {
  @ApiProperty({ description: 'A crawler or bot (left out of analytics)' }) isBot!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: "Index of the link's A/B variant the visitor got" }) variantIndex!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Index of the redirect rule that chose the destination' }) ruleIndex!: number | null;
}
