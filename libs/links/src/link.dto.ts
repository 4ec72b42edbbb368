import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { LinkFieldsDto } from './link-fields.dto';
import { CUSTOM_CODE_PATTERN } from './short-code';
import { IsForbidden, IsStrictBoolean, IsUuidField, IsValidWhen } from '@dl/platform/validation';

export const IsPasswordField = () =>
  IsValidWhen((v) => typeof v === 'string' && v.length >= 4 && v.length <= 128, 'Must be 4-128 characters');

export const CUSTOM_CODE_MESSAGE = 'Must be 4-30 characters, alphanumeric only';

/** POST /api/links (Cloud): a template is required; its defaults fill what is left out. */
export class CreateLinkDto extends LinkFieldsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUuidField()
  templateId: string;

  @ApiPropertyOptional({ minLength: 4, maxLength: 30, pattern: '^[A-Za-z0-9]{4,30}$' })
  @IsOptional()
  @Matches(CUSTOM_CODE_PATTERN, { message: CUSTOM_CODE_MESSAGE })
  customCode?: string;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @IsOptional()
  @IsUuidField()
  projectId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 4, maxLength: 128, description: 'Visitors must enter it; stored hashed, reads show hasPassword' })
  @IsOptional()
  @IsPasswordField()
  password?: string | null;
}

/** PUT /api/links/:id: only supplied fields change; `shortCode` is immutable. */
export class UpdateLinkDto extends LinkFieldsDto {
  @ApiPropertyOptional() @IsOptional() @IsStrictBoolean() isActive?: boolean;

  @ApiPropertyOptional({ format: 'uuid', description: 'Does not re-apply the template defaults' })
  @IsOptional()
  @IsUuidField()
  templateId?: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'null removes the link from its project' })
  @IsOptional()
  @IsUuidField()
  projectId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 4, maxLength: 128, description: 'null removes the password' })
  @IsOptional()
  @IsPasswordField()
  password?: string | null;

  @IsForbidden('Short code cannot be changed') shortCode?: never;
  @IsForbidden('Short code cannot be changed') customCode?: never;
}

/** One migration-import row (decisions §16): the link fields plus `password` (no template, project or code). */
export class ImportLinkFieldsDto extends LinkFieldsDto {
  @IsOptional()
  @IsPasswordField()
  password?: string | null;
}
