import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { registerValidationMessageRule } from '@dl/platform/http';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 365;
export const DEFAULT_CLICK_LIMIT = 100;
export const MAX_CLICK_LIMIT = 1000;

export const DAYS_MESSAGE = 'Days must be between 1 and 365';
export const LIMIT_MESSAGE = 'Limit must be between 1 and 1000';
const DAYS_FIELD = { message: 'Must be between 1 and 365' };
const LIMIT_FIELD = { message: 'Must be between 1 and 1000' };

// The contract's top-level messages for these query fields (decisions §8). Each rule
// recognises its own field message, so another endpoint's `limit` keeps its message.
registerValidationMessageRule((v) => (v.days === DAYS_FIELD.message ? DAYS_MESSAGE : undefined));
registerValidationMessageRule((v) => (v.limit === LIMIT_FIELD.message ? LIMIT_MESSAGE : undefined));

/** Query strings are text: "30" → 30; anything not a plain integer fails IsInt. */
export const toInteger = ({ value }: { value: unknown }) => {
  if (value === undefined) return undefined;
  if (typeof value === 'number') return value;
  return typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
};

export class AnalyticsDaysQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DAYS, default: DEFAULT_DAYS, description: 'Days up to and including today (UTC)' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt(DAYS_FIELD)
  @Min(1, DAYS_FIELD)
  @Max(MAX_DAYS, DAYS_FIELD)
  days?: number;
}

export class ClickListQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_CLICK_LIMIT, default: DEFAULT_CLICK_LIMIT, description: 'Most recent clicks first' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt(LIMIT_FIELD)
  @Min(1, LIMIT_FIELD)
  @Max(MAX_CLICK_LIMIT, LIMIT_FIELD)
  limit?: number;
}

/** GET /api/analytics/clicks/:linkId/export (decisions §16). */
export class ClickExportQueryDto extends AnalyticsDaysQueryDto {
  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json', description: 'A JSON array or CSV with a header line' })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'Must be json or csv' })
  format?: 'json' | 'csv';
}
