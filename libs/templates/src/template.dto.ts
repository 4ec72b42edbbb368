import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, Matches, ValidateNested } from 'class-validator';
import { LinkFieldsDto } from '@dl/links';
import { IsIntBetween, IsNonEmptyStringMax, IsOmittable, IsPlainObject, IsStringMax } from '@dl/platform/validation';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MESSAGE = 'Must be 1-64 lowercase letters, digits and single hyphens';

/** Any link create field except customCode and projectId, plus `expiresInDays` (decisions §6a). */
export class TemplateDefaultsDto extends LinkFieldsDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 3650, description: 'New links expire this many days after creation' })
  @IsOptional()
  @IsIntBetween(1, 3650, 'Must be between 1 and 3650')
  expiresInDays?: number;
}

export class CreateTemplateDto {
  @ApiProperty({ maxLength: 100 })
  @IsNonEmptyStringMax(100)
  name: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'Unique per organization; derived from the name when left out' })
  @IsOptional()
  @Matches(SLUG_PATTERN, { message: SLUG_MESSAGE })
  @IsStringMax(64, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ maxLength: 1000, nullable: true })
  @IsOptional()
  @IsStringMax(1000)
  description?: string | null;

  @ApiPropertyOptional({ type: TemplateDefaultsDto })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested({ message: 'Must be an object' })
  @Type(() => TemplateDefaultsDto)
  defaults?: TemplateDefaultsDto;
}

export class UpdateTemplateDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOmittable()
  @IsNonEmptyStringMax(100)
  name?: string;

  @ApiPropertyOptional({ maxLength: 64 })
  @IsOmittable()
  @Matches(SLUG_PATTERN, { message: SLUG_MESSAGE })
  @IsStringMax(64, { message: SLUG_MESSAGE })
  slug?: string;

  @ApiPropertyOptional({ maxLength: 1000, nullable: true })
  @IsOptional()
  @IsStringMax(1000)
  description?: string | null;

  @ApiPropertyOptional({ type: TemplateDefaultsDto, nullable: true, description: 'Replaces the defaults (null clears them); existing links are not changed' })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested({ message: 'Must be an object' })
  @Type(() => TemplateDefaultsDto)
  defaults?: TemplateDefaultsDto | null;
}
