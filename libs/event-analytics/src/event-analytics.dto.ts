import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { AnalyticsDaysQueryDto, DEFAULT_DAYS, MAX_DAYS, toInteger } from '@dl/analytics';
import { csvCell, ValidationError } from '@dl/platform/http';
import type { InAppEventResponseDto } from './event-analytics-response.dto';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_EXPORT_LIMIT = 1000;
export const MAX_EXPORT_LIMIT = 100_000;
export const TOP_EVENTS = 10;

export { DEFAULT_DAYS, MAX_DAYS };

/** `days`: 1-365 (400 `Days must be between 1 and 365`): the same query as click analytics. */
export class EventDaysQueryDto extends AnalyticsDaysQueryDto {}

export class EventTimelineQueryDto extends EventDaysQueryDto {
  @ApiPropertyOptional({ description: 'Only this event name (exact)' })
  @IsOptional()
  @IsString({ message: 'Must be a string' })
  @MaxLength(100, { message: 'Must be at most 100 characters' })
  eventName?: string;
}

/**
 * `page`, `limit`, `offset` are bounded by the service (their messages name this endpoint's
 * own bounds, e.g. `Limit must be between 1 and 100`), so the DTO only converts them.
 */
export class EventListQueryDto extends EventTimelineQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1 })
  @IsOptional()
  @Transform(toInteger)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Transform(toInteger)
  limit?: number;

  @ApiPropertyOptional({ description: 'Case-insensitive match on event names' })
  @IsOptional()
  @IsString({ message: 'Must be a string' })
  @MaxLength(100, { message: 'Must be at most 100 characters' })
  search?: string;
}

export class EventExportQueryDto extends EventTimelineQueryDto {
  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json' })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'Must be json or csv' })
  format?: 'json' | 'csv';

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_EXPORT_LIMIT, default: DEFAULT_EXPORT_LIMIT })
  @IsOptional()
  @Transform(toInteger)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Transform(toInteger)
  offset?: number;
}

/** An integer query value within [min, max], or its default; 400 `<Name> must be between …` otherwise. */
export function boundedInt(field: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    const label = `${field[0].toUpperCase()}${field.slice(1)}`;
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
    throw new ValidationError({ [field]: `Must be ${range}` }, `${label} must be ${range}`);
  }
  return value;
}

// ─────────────── responses ───────────────

export interface EventRow {
  id: string;
  eventName: string;
  eventData: unknown;
  eventTimestamp: Date;
  installId: string;
  linkId: string | null;
  shortCode: string | null;
  title: string | null;
}

export const CSV_HEADER = 'id,eventName,eventData,eventTimestamp,installId,linkId,linkShortCode,linkTitle';

/** Quoted as needed, and formula-escaped (decisions §14) by the shared platform helper. */
const csvField = csvCell;

/** One CSV line; `eventData` is always a quoted JSON string. */
export function toCsvLine(e: InAppEventResponseDto): string {
  return [
    csvField(e.id),
    csvField(e.eventName),
    csvField(JSON.stringify(e.eventData), true),
    csvField(e.eventTimestamp),
    csvField(e.installId),
    csvField(e.linkId),
    csvField(e.linkShortCode),
    csvField(e.linkTitle),
  ].join(',');
}
