import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { IsHttpUrl } from './http-url';
import {
  IsFlatParameters,
  IsFutureIsoDate,
  IsIntBetween,
  IsPlainObject,
  IsStringArrayOf,
  IsStringMax,
} from './validators';

export const ATTRIBUTION_MESSAGE = 'Must be between 1 and 2160';
const UTM_MESSAGE = 'Must be a string of at most 255 characters';

/** UTM parameters: create uses `utm_*` keys, update and reads use bare keys; both are accepted. */
export class UtmParametersDto {
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) source?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) medium?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) campaign?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) term?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) content?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) utm_source?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) utm_medium?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) utm_campaign?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) utm_term?: string;
  @ApiPropertyOptional() @IsOptional() @IsStringMax(255, { message: UTM_MESSAGE }) utm_content?: string;
}

const COUNTRY = /^[A-Z]{2}$/;
const LANGUAGE = /^[a-z]{2}$/;
const DEVICES = new Set(['ios', 'android', 'web']);

/** Targeting rules: `platforms` (create) and `devices` (update, reads) are the same thing. */
export class TargetingRulesDto {
  @ApiPropertyOptional({ type: [String], example: ['US', 'FR'] })
  @IsOptional()
  @IsStringArrayOf((s) => COUNTRY.test(s), 'Must be an array of ISO 3166-1 alpha-2 country codes')
  countries?: string[];

  @ApiPropertyOptional({ type: [String], example: ['en', 'fr'] })
  @IsOptional()
  @IsStringArrayOf((s) => LANGUAGE.test(s), 'Must be an array of ISO 639-1 language codes')
  languages?: string[];

  @ApiPropertyOptional({ type: [String], enum: ['ios', 'android', 'web'] })
  @IsOptional()
  @IsStringArrayOf((s) => DEVICES.has(s), 'Must be an array of ios, android or web', 3 * 10)
  devices?: string[];

  @ApiPropertyOptional({ type: [String], enum: ['ios', 'android', 'web'] })
  @IsOptional()
  @IsStringArrayOf((s) => DEVICES.has(s), 'Must be an array of ios, android or web', 3 * 10)
  platforms?: string[];
}

/**
 * Every link field a create request, a template's defaults and an update share.
 * `null` on an optional field means "unset".
 */
export class LinkFieldsDto {
  @ApiPropertyOptional({ example: 'https://example.com/landing', maxLength: 2048 })
  @IsOptional() @IsHttpUrl() originalUrl?: string;

  @ApiPropertyOptional({ maxLength: 500 }) @IsOptional() @IsStringMax(500) title?: string | null;
  @ApiPropertyOptional({ maxLength: 2000 }) @IsOptional() @IsStringMax(2000) description?: string | null;

  @ApiPropertyOptional({ description: 'Destination on iOS' }) @IsOptional() @IsHttpUrl() iosUrl?: string | null;
  @ApiPropertyOptional({ description: 'Destination on Android' }) @IsOptional() @IsHttpUrl() androidUrl?: string | null;
  @ApiPropertyOptional({ description: 'Destination on other devices' }) @IsOptional() @IsHttpUrl() webFallbackUrl?: string | null;

  @ApiPropertyOptional({ minimum: 1, maximum: 2160, default: 168 })
  @IsOptional()
  @IsIntBetween(1, 2160, ATTRIBUTION_MESSAGE)
  attributionWindowHours?: number;

  @ApiPropertyOptional({ type: UtmParametersDto })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested({ message: 'Must be an object' })
  @Type(() => UtmParametersDto)
  utmParameters?: UtmParametersDto | null;

  @ApiPropertyOptional({ type: TargetingRulesDto })
  @IsOptional()
  @IsPlainObject()
  @ValidateNested({ message: 'Must be an object' })
  @Type(() => TargetingRulesDto)
  targetingRules?: TargetingRulesDto | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, example: { product: '42' } })
  @IsOptional() @IsFlatParameters() deepLinkParameters?: Record<string, string | number | boolean> | null;

  @ApiPropertyOptional({ maxLength: 500, example: 'product/42' }) @IsOptional() @IsStringMax(500) deepLinkPath?: string | null;
  @ApiPropertyOptional({ maxLength: 100, example: 'myapp' }) @IsOptional() @IsStringMax(100) appScheme?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsHttpUrl() iosUniversalLink?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsHttpUrl() androidAppLink?: string | null;

  @ApiPropertyOptional({ maxLength: 300 }) @IsOptional() @IsStringMax(300) ogTitle?: string | null;
  @ApiPropertyOptional({ maxLength: 1000 }) @IsOptional() @IsStringMax(1000) ogDescription?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsHttpUrl() ogImageUrl?: string | null;

  @ApiPropertyOptional({ type: [String], maxItems: 50 })
  @IsOptional()
  @IsStringArrayOf((s) => s.length > 0 && s.length <= 100, 'Must be an array of at most 50 strings of 1-100 characters', 50)
  tags?: string[];

  @ApiPropertyOptional({ format: 'date-time', description: 'ISO 8601, in the future' })
  @IsOptional()
  @IsFutureIsoDate()
  expiresAt?: string | null;
}
