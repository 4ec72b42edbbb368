import { ApiProperty } from '@nestjs/swagger';

/** A pixel site as /api/pixels answers it (type of toPixelSiteResponse and OpenAPI schema). */
export class PixelSiteResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() domain!: string;
  @ApiProperty({ description: 'Public by design: embedded in the site pages' }) siteKey!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSeenAt!: string | null;
}
