import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, ValidateNested } from 'class-validator';
import {
  isCountryCode,
  IsCountryCode,
  IsFlatParameters,
  IsFutureIsoDate,
  IsHttpUrl,
  IsIntBetween,
  isPlainObject,
  IsPlainObject,
  IsStrictBoolean,
  IsStringArrayOf,
  IsStringMap,
  IsStringMax,
  IsValidWhen,
  parseIsoDate,
} from '@dl/platform/validation';

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

export const OS_NAMES = ['iOS', 'Android', 'Windows', 'macOS', 'Linux'] as const;
export const BROWSER_NAMES = ['Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet', 'Opera'] as const;
const CONDITION_KEYS = ['countries', 'languages', 'devices', 'os', 'browsers', 'query', 'after', 'before'];

/** One A/B variant: `{url, weight}` (weight 1-100). */
export class LinkVariantDto {
  @ApiProperty({ example: 'https://example.com/a' }) @IsHttpUrl() url!: string;
  @ApiProperty({ minimum: 1, maximum: 100 }) @IsIntBetween(1, 100, 'Must be an integer between 1 and 100') weight!: number;
}

/** Conditions of a redirect rule: one or more, all must hold. */
export class RedirectRuleConditionsDto {
  @ApiPropertyOptional({ type: [String], example: ['US', 'CA'], description: 'ISO 3166-1 alpha-2' })
  @IsOptional()
  @IsCountryCode()
  countries?: string[];

  @ApiPropertyOptional({ type: [String], example: ['en'], description: 'ISO 639-1' })
  @IsOptional()
  @IsStringArrayOf((s) => LANGUAGE.test(s), 'Must be an array of ISO 639-1 language codes', 200)
  languages?: string[];

  @ApiPropertyOptional({ type: [String], enum: ['ios', 'android', 'web'] })
  @IsOptional()
  @IsStringArrayOf((s) => DEVICES.has(s), 'Must be an array of ios, android or web', 3)
  devices?: string[];

  @ApiPropertyOptional({ type: [String], enum: OS_NAMES })
  @IsOptional()
  @IsStringArrayOf((s) => (OS_NAMES as readonly string[]).includes(s), `Must be an array of ${OS_NAMES.join(', ')}`, OS_NAMES.length)
  os?: string[];

  @ApiPropertyOptional({ type: [String], enum: BROWSER_NAMES })
  @IsOptional()
  @IsStringArrayOf((s) => (BROWSER_NAMES as readonly string[]).includes(s), `Must be an array of ${BROWSER_NAMES.join(', ')}`, BROWSER_NAMES.length)
  browsers?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, example: { ref: 'newsletter' }, description: 'Query parameter → exact value' })
  @IsOptional()
  @IsStringMap(20, 100, 500)
  query?: Record<string, string>;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsValidWhen((v) => parseIsoDate(v) !== null, 'Must be an ISO 8601 date')
  after?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Later than `after`' })
  @IsOptional()
  @IsValidWhen((v) => parseIsoDate(v) !== null, 'Must be an ISO 8601 date')
  @IsValidWhen(
    (v, o) => {
      const after = parseIsoDate((o as { after?: unknown }).after);
      const before = parseIsoDate(v);
      return !after || !before || after.getTime() < before.getTime();
    },
    'Must be later than after',
  )
  before?: string;
}

/** One redirect rule: when every condition holds, the visitor goes to `url`. */
export class RedirectRuleDto {
  @ApiProperty({ type: RedirectRuleConditionsDto })
  @IsPlainObject()
  @IsValidWhen(
    // Not an object: @IsPlainObject says so, this one stays quiet.
    (v) => !isPlainObject(v) || Object.keys(v).some((k) => CONDITION_KEYS.includes(k) && v[k] !== undefined),
    'Must have at least one condition',
  )
  @ValidateNested({ message: 'Must be an object' })
  @Type(() => RedirectRuleConditionsDto)
  conditions!: RedirectRuleConditionsDto;

  @ApiProperty({ example: 'https://example.com/us' }) @IsHttpUrl() url!: string;
}

/**
 * Every link field a create request, a template's defaults and an update share.
 * `null` on an optional field means "unset".
 */
export class LinkFieldsDto {
  @ApiPropertyOptional({ example: 'https://example.com/landing', maxLength: 2048 })
  @IsOptional() @IsHttpUrl() originalUrl?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 }) @IsOptional() @IsStringMax(500) title?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 }) @IsOptional() @IsStringMax(2000) description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Destination on iOS' }) @IsOptional() @IsHttpUrl() iosUrl?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Destination on Android' }) @IsOptional() @IsHttpUrl() androidUrl?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Destination on other devices' }) @IsOptional() @IsHttpUrl() webFallbackUrl?: string | null;

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

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500, example: 'product/42' }) @IsOptional() @IsStringMax(500) deepLinkPath?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100, example: 'myapp' }) @IsOptional() @IsStringMax(100) appScheme?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsHttpUrl() iosUniversalLink?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsHttpUrl() androidAppLink?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 300 }) @IsOptional() @IsStringMax(300) ogTitle?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 }) @IsOptional() @IsStringMax(1000) ogDescription?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) @IsOptional() @IsHttpUrl() ogImageUrl?: string | null;

  @ApiPropertyOptional({ type: [String], maxItems: 10, description: 'Trimmed; case-insensitively unique' })
  @IsOptional()
  @IsStringArrayOf((s) => s.trim().length > 0 && s.trim().length <= 40, 'Must be an array of at most 10 strings of 1-40 characters', 10)
  tags?: string[] | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time', description: 'ISO 8601, in the future' })
  @IsOptional()
  @IsFutureIsoDate()
  expiresAt?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Where an expired link (by date or clicks) sends visitors instead of the 410 page' })
  @IsOptional() @IsHttpUrl() expiredUrl?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, minimum: 1, maximum: 1_000_000_000, description: 'The link expires after this many non-bot clicks' })
  @IsOptional()
  @IsIntBetween(1, 1_000_000_000, 'Must be an integer between 1 and 1000000000')
  maxClicks?: number | null;

  @ApiPropertyOptional({ type: [LinkVariantDto], nullable: true, minItems: 2, maxItems: 10, description: 'A/B test: weights sum to 100' })
  @IsOptional()
  @IsArray({ message: 'Must be an array of 2-10 variants' })
  @ArrayMinSize(2, { message: 'Must be an array of 2-10 variants' })
  @ArrayMaxSize(10, { message: 'Must be an array of 2-10 variants' })
  @IsValidWhen(
    (v) =>
      !Array.isArray(v) || v.length < 2 || v.length > 10 || !v.every((x) => typeof x?.weight === 'number') ||
      v.reduce((n, x) => n + x.weight, 0) === 100,
    'Weights must sum to 100',
  )
  @ValidateNested({ each: true, message: 'Must be an object' })
  @Type(() => LinkVariantDto)
  variants?: LinkVariantDto[] | null;

  @ApiPropertyOptional({ type: [RedirectRuleDto], nullable: true, maxItems: 20, description: 'Ordered; the first matching rule wins' })
  @IsOptional()
  @IsArray({ message: 'Must be an array of at most 20 rules' })
  @ArrayMaxSize(20, { message: 'Must be an array of at most 20 rules' })
  @ValidateNested({ each: true, message: 'Must be an object' })
  @Type(() => RedirectRuleDto)
  redirectRules?: RedirectRuleDto[] | null;

  @ApiPropertyOptional({ description: 'Show web destinations in a full-page frame under the short URL' })
  @IsOptional() @IsStrictBoolean() cloak?: boolean | null;

  @ApiPropertyOptional({ description: 'Public stats page at /<code>+ and /api/public/stats/<domain>/<code>' })
  @IsOptional() @IsStrictBoolean() publicStats?: boolean | null;

  @ApiPropertyOptional({
    example: 'go.acme.com',
    description: "A verified domain of the organization (or the service's host); without it the organization's default domain, else the service host",
  })
  @IsOptional()
  @IsStringMax(300, { message: 'Must be a verified domain of your organization' })
  domain?: string;
}
