import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class PublicDateClicksDto {
  @ApiProperty({ example: '2026-11-25' }) date!: string;
  @ApiProperty() clicks!: number;
}

export class PublicCountryClicksDto {
  @ApiProperty({ example: 'US' }) countryCode!: string;
  @ApiProperty({ example: 'United States' }) country!: string;
  @ApiProperty() clicks!: number;
}

export class PublicDeviceClicksDto {
  @ApiProperty({ example: 'mobile' }) device!: string;
  @ApiProperty() clicks!: number;
}

/** `GET /api/public/stats/<domain>/<code>` and the `/<code>+` page (decisions §16): nothing personal. */
export class PublicStatsDto {
  @ApiProperty() shortCode!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) title!: string | null;
  @ApiProperty({ description: 'Every non-bot click since the link was made' }) totalClicks!: number;
  @ApiProperty({ type: [PublicDateClicksDto], description: 'The last 30 days (UTC), oldest first' }) clicksByDate!: PublicDateClicksDto[];
  @ApiProperty({ type: [PublicCountryClicksDto], description: 'Last 30 days, most clicks first' }) clicksByCountry!: PublicCountryClicksDto[];
  @ApiProperty({ type: [PublicDeviceClicksDto], description: 'Last 30 days' }) clicksByDevice!: PublicDeviceClicksDto[];
}
