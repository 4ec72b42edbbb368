import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsNonEmptyStringMax, IsUuidField, IsValidWhen, parseIsoDate } from '@dl/platform/validation';

export const CONVERSION_GROUPS = ['day', 'link', 'campaign', 'country', 'source'] as const;
export type ConversionGroup = (typeof CONVERSION_GROUPS)[number];
export const DEFAULT_CONVERSION_DAYS = 30;
export const MAX_CONVERSION_DAYS = 365;

const toInteger = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
const isDay = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && parseIsoDate(v) !== null;
const DAYS_FIELD = { message: `Must be between 1 and ${MAX_CONVERSION_DAYS}` };

/** GET /api/analytics/conversions (and its export): the window and the filters (decisions §23). */
export class ConversionsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_CONVERSION_DAYS, default: DEFAULT_CONVERSION_DAYS, description: 'Days up to and including today (UTC); or from/to' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt(DAYS_FIELD)
  @Min(1, DAYS_FIELD)
  @Max(MAX_CONVERSION_DAYS, DAYS_FIELD)
  days?: number;

  @ApiPropertyOptional({ format: 'date', description: 'First day (UTC, inclusive); with `to`' })
  @IsOptional()
  @IsValidWhen(isDay, 'Must be a date (YYYY-MM-DD)')
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Last day (UTC, inclusive); with `from`' })
  @IsOptional()
  @IsValidWhen(isDay, 'Must be a date (YYYY-MM-DD)')
  to?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidField()
  linkId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidField()
  projectId?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @IsOptional()
  @IsNonEmptyStringMax(50)
  tag?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsNonEmptyStringMax(200)
  utmCampaign?: string;

  @ApiPropertyOptional({ enum: CONVERSION_GROUPS, default: 'day' })
  @IsOptional()
  @IsIn(CONVERSION_GROUPS, { message: `Must be one of: ${CONVERSION_GROUPS.join(', ')}` })
  groupBy?: ConversionGroup;
}

/** GET /api/customers */
export class CustomersQueryDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'Matches external id, name or email (case-insensitive)' })
  @IsOptional()
  @IsNonEmptyStringMax(100)
  search?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidField()
  linkId?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'Must be between 1 and 100' })
  @Min(1, { message: 'Must be between 1 and 100' })
  @Max(100, { message: 'Must be between 1 and 100' })
  limit?: number;

  @ApiPropertyOptional({ description: 'X-Next-Cursor of the previous page' })
  @IsOptional()
  @IsValidWhen((v) => typeof v === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(v), 'Must be a cursor from X-Next-Cursor')
  cursor?: string;
}
