import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Matches, MaxLength } from 'class-validator';
import { IsNonEmptyStringMax, IsOmittable } from '@dl/platform/validation';

export const SLUG_RULE = 'Must be 3-48 lowercase letters, digits or dashes, starting and ending with a letter or digit';
const SLUG = /^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$/;

/** PATCH /api/organization: any of the three (Admin; requireTwoFactor: Owner). */
export class UpdateOrganizationDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOmittable()
  @IsNonEmptyStringMax(100)
  name?: string;

  @ApiPropertyOptional({ pattern: SLUG.source, example: 'acme' })
  @IsOmittable()
  @Matches(SLUG, { message: SLUG_RULE })
  @IsString({ message: SLUG_RULE })
  slug?: string;

  @ApiPropertyOptional({ description: 'Owner only; the Owner must have two-factor authentication on to turn it on' })
  @IsOmittable()
  @IsBoolean({ message: 'Must be a boolean' })
  requireTwoFactor?: boolean;
}

/** DELETE /api/organization: the organization's slug, typed to confirm. */
export class DeleteOrganizationDto {
  @ApiProperty({ example: 'acme', description: "The organization's slug" })
  @MaxLength(100, { message: "Must be the organization's slug" })
  @IsString({ message: "Must be the organization's slug" })
  confirm: string;
}
