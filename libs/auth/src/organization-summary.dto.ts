import { ApiProperty } from '@nestjs/swagger';
import { Tier } from '@dl/platform/db';

/** An organization as the account answers (signup, /auth/me, GET /api/organization) show it first: id, name, slug, plan. */
export class OrganizationSummaryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: Tier }) tier!: Tier;
}
