import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, Matches, ValidateNested } from 'class-validator';
import { LinkFieldsDto } from '@dl/links';
import { IsIntBetween, IsNonEmptyStringMax, IsOmittable, IsPlainObject, IsStringMax, stacked } from '@dl/platform/validation';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_MESSAGE = 'Must be 1-64 lowercase letters, digits and single hyphens';
/** A template slug's checks (create and update). */
const IsTemplateSlug = () => stacked(Matches(SLUG_PATTERN, { message: SLUG_MESSAGE }), IsStringMax(64, { message: SLUG_MESSAGE }));
/** A template's description, on create and update alike. */
const TemplateDescription = () => stacked(ApiPropertyOptional({ maxLength: 1000, nullable: true }), IsOptional(), IsStringMax(1000));

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
  @IsTemplateSlug()
  slug?: string;

  @TemplateDescription()
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
  @IsTemplateSlug()
  slug?: string;

  @TemplateDescription()
  description?: string | null;

  @ApiPropertyOptional({ type: TemplateDefaultsDto, nullable: true, description: 'Replaces the defaults (null clears them); existing links are not changed' })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested({ message: 'Must be an object' })
  @Type(() => TemplateDefaultsDto)
  defaults?: TemplateDefaultsDto | null;
}
