import { Transform, Type } from 'class-transformer';
import { StripsUnstorableText } from '@dl/platform/http';
import { EachPlainObject, stacked } from '@dl/platform/validation';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Max,
  Min,
  MaxLength,
  registerDecorator,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';

export const MAX_EVENT_NAME_LENGTH = 100;
export const MAX_PROPERTIES_BYTES = 32 * 1024;
export const MAX_FUTURE_SKEW_MS = 5 * 60 * 1000;
export const MAX_EVENT_AGE_MS = 30 * 24 * 3600 * 1000;
export const MAX_EVENTS_PER_BATCH = 100;

const lower = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value);

/** Properties serialize to at most 32 KB of JSON. */
function MaxJsonBytes(max: number, options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'maxJsonBytes',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => {
          if (value === undefined) return true;
          const json = JSON.stringify(value) ?? '';
          // A UTF-16 unit is at most 3 bytes of UTF-8: a short JSON needs no byte count.
          return json.length <= max / 3 || Buffer.byteLength(json) <= max;
        },
      },
    });
}

/** An event time no more than 5 minutes ahead and no more than 30 days old. */
function WithinEventTimeRange(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'withinEventTimeRange',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return true;
          const t = Date.parse(value);
          if (Number.isNaN(t)) return true;
          const now = Date.now();
          return t <= now + MAX_FUTURE_SKEW_MS && t >= now - MAX_EVENT_AGE_MS;
        },
        defaultMessage: () => 'Must be within the last 30 days and at most 5 minutes in the future',
      },
    });
}

const UUID_MESSAGE = 'Must be a valid UUID';

/** A UUID in either case, kept lower-cased. */
const IsLowercasedUuid = () => stacked(Transform(lower), IsUUID('all', { message: UUID_MESSAGE }));

/** Absent, or a string of at most `max` characters. */
const IsOptionalStringMax = (max: number) =>
  stacked(IsOptional(), IsString({ message: 'Must be a string' }), MaxLength(max, { message: `Must be at most ${max} characters` }));

export class SdkInstallDto {
  @IsLowercasedUuid()
  installId: string;

  @Transform(lower)
  @IsIn(['ios', 'android'], { message: 'Must be one of: ios, android' })
  platform: 'ios' | 'android';

  @IsString({ message: 'Must be a string' })
  @Length(1, 32, { message: 'Must be 1-32 characters' })
  osVersion: string;

  @IsOptionalStringMax(100)
  deviceModel?: string;

  /** BCP 47 tag, e.g. en-US. */
  @IsOptionalStringMax(35)
  language?: string;

  @IsOptionalStringMax(32)
  appVersion?: string;

  /** The click id when the app was opened by the link (Universal Link / App Link / `dl_click`). */
  @IsOptional()
  @IsLowercasedUuid()
  clickId?: string;
}

export class SdkOpenDto {
  @IsLowercasedUuid()
  installId: string;

  @IsOptionalStringMax(2048)
  url?: string;
}

export class SdkEventDto {
  @IsLowercasedUuid()
  installId: string;

  @IsString({ message: 'Must be a string' })
  @Length(1, MAX_EVENT_NAME_LENGTH, { message: `Must be 1-${MAX_EVENT_NAME_LENGTH} characters` })
  eventName: string;

  @IsOptional()
  @IsObject({ message: 'Must be an object' })
  @MaxJsonBytes(MAX_PROPERTIES_BYTES, { message: 'Must be at most 32 KB of JSON' })
  properties?: Record<string, unknown>;

  /** When the event happened on the device (default: when received). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'Must be an ISO 8601 timestamp' })
  @WithinEventTimeRange()
  timestamp?: string;

  /** The SDK's own id for the event: a retried send is stored once. */
  @IsOptional()
  @IsUUID('all', { message: UUID_MESSAGE })
  eventId?: string;
}

/** Several events in one call (what the SDK sends when it batches). */
export class SdkEventBatchDto {
  @IsArray({ message: 'Must be an array' })
  @ArrayMinSize(1, { message: 'Must hold 1-100 events' })
  @ArrayMaxSize(MAX_EVENTS_PER_BATCH, { message: 'Must hold 1-100 events' })
  @EachPlainObject()
  @ValidateNested({ each: true, message: 'Must be an object' })
  @Type(() => SdkEventDto)
  events: SdkEventDto[];
}

/** Decisions §14: a conversion's value is at most 1,000,000 (and not negative). */
export const PIXEL_MAX_VALUE = 1_000_000;
const PIXEL_VALUE_MESSAGE = 'Must be between 0 and 1000000';

/** Sent by visitors' browsers: NUL and lone surrogates are stripped, not refused (decisions §14). */
@StripsUnstorableText()
export class PixelEventDto {
  @IsString({ message: 'Must be a string' })
  @MaxLength(64, { message: 'Must be a site key' })
  siteKey: string;

  @IsIn(['pageview', 'conversion'], { message: 'Must be one of: pageview, conversion' })
  type: 'pageview' | 'conversion';

  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'Must be a valid URL' })
  @MaxLength(2048, { message: 'Must be a valid URL' })
  url: string;

  @IsOptionalStringMax(2048)
  referrer?: string;

  @IsOptional()
  @IsUUID('all', { message: UUID_MESSAGE })
  clickId?: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'Must be a number' })
  @Min(0, { message: PIXEL_VALUE_MESSAGE })
  @Max(PIXEL_MAX_VALUE, { message: PIXEL_VALUE_MESSAGE })
  value?: number;

  @IsOptional()
  @IsString({ message: 'Must be an ISO 4217 currency code' })
  currency?: string;
}

export interface SdkInstallResponse {
  attributed: boolean;
  linkId: string | null;
  shortCode: string | null;
  deepLinkPath: string | null;
  deepLinkParameters: Record<string, unknown> | null;
  matchType: 'clickId' | 'fingerprint' | null;
}
