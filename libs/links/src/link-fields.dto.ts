import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
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
  EachPlainObject,
  IsStrictBoolean,
  IsStringArrayOf,
  IsStringMap,
  IsStringMax,
  IsValidWhen,
  parseIsoDate,
  MAX_URL_LENGTH,
} from '@dl/platform/validation';
import { LINK_FIELDS, LINK_PUBLIC_FIELDS, linkField, LinkFieldKeyOf, LinkFieldSpec } from '@dl/link-fields';
import { decorate, definedOnly, FieldDecorator } from './field-decorators';

export const ATTRIBUTION_MESSAGE = LINK_FIELDS.attributionWindowHours.message;
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

/** A json field's input: its schema, its rules (in decorator order) and the DTO type it validates into. */
interface JsonInput<T> {
  doc: ApiPropertyOptions;
  rules: FieldDecorator[];
  /** Type only. */
  value?: T;
}
const jsonInput = <T>(doc: ApiPropertyOptions, rules: FieldDecorator[]): JsonInput<T> => ({ doc, rules });
const VARIANTS_MESSAGE = 'Must be an array of 2-10 variants';
const RULES_MESSAGE = 'Must be an array of at most 20 rules';

/** The json fields' input rules (every other kind's rule follows from its declaration). */
const JSON_INPUTS = {
  utmParameters: jsonInput<UtmParametersDto>({ type: UtmParametersDto }, [
    IsPlainObject(),
    ValidateNested({ message: 'Must be an object' }),
    Type(() => UtmParametersDto),
  ]),
  targetingRules: jsonInput<TargetingRulesDto>({ type: TargetingRulesDto }, [
    IsPlainObject(),
    ValidateNested({ message: 'Must be an object' }),
    Type(() => TargetingRulesDto),
  ]),
  deepLinkParameters: jsonInput<Record<string, string | number | boolean>>({ type: 'object', additionalProperties: true }, [IsFlatParameters()]),
  variants: jsonInput<LinkVariantDto[]>({ type: [LinkVariantDto], minItems: 2, maxItems: 10 }, [
    IsArray({ message: VARIANTS_MESSAGE }),
    ArrayMinSize(2, { message: VARIANTS_MESSAGE }),
    ArrayMaxSize(10, { message: VARIANTS_MESSAGE }),
    IsValidWhen(
      (v) =>
        !Array.isArray(v) || v.length < 2 || v.length > 10 || !v.every((x) => typeof x?.weight === 'number') ||
        v.reduce((n, x) => n + x.weight, 0) === 100,
      'Weights must sum to 100',
    ),
    EachPlainObject(),
    ValidateNested({ each: true, message: 'Must be an object' }),
    Type(() => LinkVariantDto),
  ]),
  redirectRules: jsonInput<RedirectRuleDto[]>({ type: [RedirectRuleDto], maxItems: 20 }, [
    IsArray({ message: RULES_MESSAGE }),
    ArrayMaxSize(20, { message: RULES_MESSAGE }),
    EachPlainObject(),
    ValidateNested({ each: true, message: 'Must be an object' }),
    Type(() => RedirectRuleDto),
  ]),
} satisfies { [K in LinkFieldKeyOf<'json'>]: JsonInput<unknown> };

const TAGS_MESSAGE = 'Must be an array of at most 10 strings of 1-40 characters';

/** A scalar kind's schema and rule. */
function scalarInput(field: LinkFieldSpec): { doc: ApiPropertyOptions; rules: FieldDecorator[] } {
  const [min, max] = field.range ?? [0, 0];
  switch (field.kind) {
    case 'text':
      return { doc: { type: String, maxLength: field.maxLength }, rules: [IsStringMax(field.maxLength as number)] };
    case 'url':
      return { doc: { type: String, maxLength: MAX_URL_LENGTH }, rules: [IsHttpUrl()] };
    case 'int':
      return { doc: { type: Number, minimum: min, maximum: max, default: field.fallback }, rules: [IsIntBetween(min, max, field.message as string)] };
    case 'boolean':
      return { doc: { type: Boolean, default: field.fallback }, rules: [IsStrictBoolean()] };
    case 'date':
      return { doc: { type: String, format: 'date-time' }, rules: [IsFutureIsoDate()] };
    case 'tags':
      return { doc: { type: [String], maxItems: 10 }, rules: [IsStringArrayOf((s) => s.trim().length > 0 && s.trim().length <= 40, TAGS_MESSAGE, 10)] };
    default:
      throw new Error(`${field.kind} fields have no scalar input`);
  }
}

/**
 * Whether a request may send null: yes for a field that is null when unset, and for booleans
 * and tags (null puts the fallback back); not for fields that always have a value.
 */
const acceptsNull = (field: LinkFieldSpec) => field.fallback === undefined || field.kind === 'boolean' || field.kind === 'tags';

type Fields = typeof LINK_FIELDS;
type InputKey = (typeof LINK_PUBLIC_FIELDS)[number];
type JsonKey = keyof typeof JSON_INPUTS;
type ScalarInput<F> = F extends { kind: 'int' } ? number : F extends { kind: 'boolean' } ? boolean : F extends { kind: 'tags' } ? string[] : string;
type InputValue<K extends InputKey> = K extends JsonKey
  ? NonNullable<(typeof JSON_INPUTS)[K]['value']> | null
  : ScalarInput<Fields[K]> | (Fields[K] extends { fallback: string | number } ? never : null);

/** What a request may give for each field (every one optional; `null` on a nullable one means "unset"). */
export type LinkFieldsInput = { [K in InputKey]?: InputValue<K> };

/** The declared fields (@dl/link-fields) as a request gives them: rules and schema derived from each declaration. */
export interface LinkValueFieldsDto extends LinkFieldsInput {}
export class LinkValueFieldsDto {}

for (const key of LINK_PUBLIC_FIELDS) {
  const field = linkField(key);
  const input = field.kind === 'json' ? JSON_INPUTS[key as JsonKey] : scalarInput(field);
  const doc = definedOnly({ ...input.doc, nullable: acceptsNull(field) || undefined, description: field.description, example: field.example });
  decorate(LinkValueFieldsDto.prototype, key, [ApiPropertyOptional(doc), IsOptional(), ...input.rules]);
}

/**
 * Every link field a create request, a template's defaults and an update share.
 * `null` on an optional field means "unset".
 */
export class LinkFieldsDto extends LinkValueFieldsDto {
  @ApiPropertyOptional({
    example: 'go.acme.com',
    description: "A verified domain of the organization (or the service's host); without it the organization's default domain, else the service host",
  })
  @IsOptional()
  @IsStringMax(300, { message: 'Must be a verified domain of your organization' })
  domain?: string;
}
