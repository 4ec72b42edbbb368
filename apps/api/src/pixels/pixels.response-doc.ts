import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI documentation of the pixel site responses (libs/sdk/src/pixel-sites.dto.ts). */
export class PixelSiteResponseDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() domain!: string;
  @ApiProperty({ description: 'Public by design: embedded in the site pages' }) siteKey!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSeenAt!: string | null;
}

export class PixelSuccessResponseDoc {
  @ApiProperty({ enum: [true], example: true }) success!: true;
}
