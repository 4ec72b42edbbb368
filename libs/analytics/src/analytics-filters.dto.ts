import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { isCountryCode, IsStringArrayOf, IsStringMax, isUuid, IsUuidField, IsValidWhen } from '@dl/platform/validation';
import { MAX_DAYS, toInteger } from './analytics.dto';

/** Most distinct `linkId` values one query filters on (repeats are folded first). */
export const MAX_LINK_FILTERS = 100;
export const DEVICES = ['mobile', 'desktop', 'tablet'] as const;

/** `linkId=a&linkId=b` arrives as an array, a single one as a string; repeats fold into one. */
const toIdList = ({ value }: { value: unknown }) => {
  const list = typeof value === 'string' ? [value] : value;
  return Array.isArray(list) ? [...new Set(list.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)))] : list;
};
const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date written YYYY-MM-DD. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return false;
  const t = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === value;
}

/** An IANA time zone the runtime (ICU) knows. */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || !value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export const dayCount = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

type Window = { days?: number; from?: string; to?: string };
const FILTER_TEXT = 200;

/**
 * The filters of the organization-wide view and of link analytics (decisions §24). Every filter is
 * an exact match on a stored value and they combine with AND: an unknown value is an empty result,
 * an invalid value of a typed filter (ids, country, device, variant, rule) a 400 naming it.
 */
export class AnalyticsFiltersDto {
  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_LINK_FILTERS, description: 'Only these links (repeat the parameter); another organization\'s link matches no click' })
  @IsOptional()
  @Transform(toIdList)
  @IsStringArrayOf(isUuid, `Must be up to ${MAX_LINK_FILTERS} valid UUIDs`, MAX_LINK_FILTERS)
  linkId?: string[];

  @ApiPropertyOptional({ format: 'uuid', description: "Only the project's links" })
  @IsOptional()
  @IsUuidField()
  projectId?: string;

  @ApiPropertyOptional({ maxLength: 40, description: 'Only links with this tag (case-insensitive)' })
  @IsOptional()
  @IsStringMax(40)
  tag?: string;

  @ApiPropertyOptional({ maxLength: 300, description: "Only links on this branded domain; empty for the service's own host" })
  @IsOptional()
  @IsStringMax(300)
  domain?: string;

  @ApiPropertyOptional({ example: 'DE', description: 'ISO 3166-1 alpha-2 code of the visitor\'s country' })
  @IsOptional()
  @Transform(upper)
  @IsValidWhen(isCountryCode, 'Must be an ISO 3166-1 alpha-2 country code')
  country?: string;

  @ApiPropertyOptional({ maxLength: FILTER_TEXT }) @IsOptional() @IsStringMax(FILTER_TEXT) city?: string;

  @ApiPropertyOptional({ enum: DEVICES })
  @IsOptional()
  @IsIn(DEVICES, { message: 'Must be mobile, desktop or tablet' })
  device?: (typeof DEVICES)[number];

  @ApiPropertyOptional({ maxLength: FILTER_TEXT, example: 'iOS' }) @IsOptional() @IsStringMax(FILTER_TEXT) os?: string;
  @ApiPropertyOptional({ maxLength: FILTER_TEXT, example: 'Chrome' }) @IsOptional() @IsStringMax(FILTER_TEXT) browser?: string;
  @ApiPropertyOptional({ maxLength: FILTER_TEXT, example: 'news.ycombinator.com' }) @IsOptional() @IsStringMax(FILTER_TEXT) referrerHost?: string;
  @ApiPropertyOptional({ maxLength: 512 }) @IsOptional() @IsStringMax(512) utmSource?: string;
  @ApiPropertyOptional({ maxLength: 512 }) @IsOptional() @IsStringMax(512) utmMedium?: string;
  @ApiPropertyOptional({ maxLength: 512 }) @IsOptional() @IsStringMax(512) utmCampaign?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 9, description: 'Index of the A/B variant the visitor got' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'Must be between 0 and 9' })
  @Min(0, { message: 'Must be between 0 and 9' })
  @Max(9, { message: 'Must be between 0 and 9' })
  variant?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 19, description: 'Index of the redirect rule that chose the destination' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'Must be between 0 and 19' })
  @Min(0, { message: 'Must be between 0 and 19' })
  @Max(19, { message: 'Must be between 0 and 19' })
  rule?: number;

  @ApiPropertyOptional({ enum: ['include'], description: 'include: bot clicks count too' })
  @IsOptional()
  @IsIn(['include'], { message: 'Must be include' })
  bots?: 'include';

  @ApiPropertyOptional({ example: 'Europe/Berlin', default: 'UTC', description: 'IANA time zone of the days (window and clicksByDate)' })
  @IsOptional()
  @IsValidWhen(isTimeZone, 'Must be an IANA time zone')
  tz?: string;
}

/** GET /api/analytics: the window (`days`, or `from` and `to`) and the filters. */
export class OrgAnalyticsQueryDto extends AnalyticsFiltersDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DAYS, default: 30, description: 'Days up to and including today (in `tz`)' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'Must be between 1 and 365' })
  @Min(1, { message: 'Must be between 1 and 365' })
  @Max(MAX_DAYS, { message: 'Must be between 1 and 365' })
  @IsValidWhen((_v, o) => (o as Window).from === undefined && (o as Window).to === undefined, 'Use either days or from and to')
  days?: number;

  @ApiPropertyOptional({ format: 'date', example: '2026-01-01', description: 'First day of the window (inclusive; with `to`)' })
  @IsOptional()
  @IsValidWhen(isIsoDate, 'Must be a date (YYYY-MM-DD)')
  @IsValidWhen((_v, o) => (o as Window).to !== undefined, 'Needs to as well')
  @IsValidWhen((v, o) => !isIsoDate((o as Window).to) || !isIsoDate(v) || v <= (o as Window).to!, 'Must not be after to')
  from?: string;

  @ApiPropertyOptional({ format: 'date', example: '2026-01-31', description: 'Last day of the window (inclusive; with `from`)' })
  @IsOptional()
  @IsValidWhen(isIsoDate, 'Must be a date (YYYY-MM-DD)')
  @IsValidWhen((_v, o) => (o as Window).from !== undefined, 'Needs from as well')
  @IsValidWhen(
    (v, o) => !isIsoDate(v) || !isIsoDate((o as Window).from) || v < (o as Window).from! || dayCount((o as Window).from!, v) <= MAX_DAYS,
    `The window must be at most ${MAX_DAYS} days`,
  )
  to?: string;
}

/** Link analytics (decisions §8) with the §24 filters and `tz`. */
export class LinkAnalyticsQueryDto extends AnalyticsFiltersDto {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_DAYS, default: 30, description: 'Days up to and including today (UTC, or `tz`)' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'Must be between 1 and 365' })
  @Min(1, { message: 'Must be between 1 and 365' })
  @Max(MAX_DAYS, { message: 'Must be between 1 and 365' })
  days?: number;
}

/** The filters of a query, without window and `tz`. */
export type AnalyticsFilters = Omit<AnalyticsFiltersDto, 'tz'>;

/** Whether any filter (not the window, not `tz`) is set. */
export function hasFilters(q: AnalyticsFiltersDto): boolean {
  const { tz: _tz, ...filters } = q;
  return Object.entries(filters).some(([k, v]) => v !== undefined && !['days', 'from', 'to'].includes(k) && !(Array.isArray(v) && !v.length));
}
