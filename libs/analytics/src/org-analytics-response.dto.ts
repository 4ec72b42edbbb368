import { ApiProperty } from '@nestjs/swagger';
import { CityClicksDto, CountryClicksDto, DateClicksDto, DeviceClicksDto } from './analytics-response.dto';

/* GET /api/analytics (decisions §24): each class is the type org-analytics.mapper.ts builds and the OpenAPI schema. */

export class WindowTotalsDto {
  @ApiProperty() totalClicks!: number;
  @ApiProperty({ description: 'Daily unique visitors per link, summed over the window' }) uniqueClicks!: number;
}

export class OrgTopLinkDto {
  @ApiProperty({ format: 'uuid' }) linkId!: string;
  @ApiProperty() shortCode!: string;
  @ApiProperty({ type: String, nullable: true }) title!: string | null;
  @ApiProperty() clicks!: number;
}

export class ValueClicksDto {
  @ApiProperty() value!: string;
  @ApiProperty() clicks!: number;
}

export class OrgAnalyticsResponseDto {
  @ApiProperty() totalClicks!: number;
  @ApiProperty({ description: 'Daily unique visitors per link, summed over the window' }) uniqueClicks!: number;
  @ApiProperty({ type: WindowTotalsDto, description: 'The window of the same length just before' }) previous!: WindowTotalsDto;
  @ApiProperty({ type: [DateClicksDto], description: 'One entry per day of the window in `tz`, oldest first' }) clicksByDate!: DateClicksDto[];
  @ApiProperty({ type: [OrgTopLinkDto] }) topLinks!: OrgTopLinkDto[];
  @ApiProperty({ type: [CountryClicksDto] }) clicksByCountry!: CountryClicksDto[];
  @ApiProperty({ type: [CityClicksDto] }) clicksByCity!: CityClicksDto[];
  @ApiProperty({ type: [DeviceClicksDto] }) clicksByDevice!: DeviceClicksDto[];
  @ApiProperty({ type: [ValueClicksDto] }) clicksByOs!: ValueClicksDto[];
  @ApiProperty({ type: [ValueClicksDto] }) clicksByBrowser!: ValueClicksDto[];
  @ApiProperty({ type: [ValueClicksDto], description: 'Referrer hosts (clicks without a referrer are left out)' }) clicksByReferrer!: ValueClicksDto[];
  @ApiProperty({ type: [ValueClicksDto] }) clicksByUtmSource!: ValueClicksDto[];
  @ApiProperty({ type: [ValueClicksDto] }) clicksByUtmMedium!: ValueClicksDto[];
  @ApiProperty({ type: [ValueClicksDto] }) clicksByUtmCampaign!: ValueClicksDto[];
}
