import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { isCurrencyCode, IsNonEmptyStringMax, IsOmittable, IsStringMax, IsUuidField, IsValidWhen, isPlainObject } from '@dl/platform/validation';

/** decisions §23: amounts are integers in the currency's minor units, 0 to 10^12. */
export const MAX_AMOUNT = 1_000_000_000_000;
export const AMOUNT_MESSAGE = `Must be an integer between 0 and ${MAX_AMOUNT} (minor units)`;
export const CURRENCY_MESSAGE = 'Must be an ISO 4217 currency code';
export const METADATA_MAX_KEYS = 20;
export const METADATA_MAX_BYTES = 2048;
export const METADATA_MESSAGE = `Must be an object of at most ${METADATA_MAX_KEYS} keys and ${METADATA_MAX_BYTES} bytes of JSON`;

export const isAmount = (v: unknown, min = 0): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= MAX_AMOUNT;
/** ISO 4217, either case (Stripe sends `usd`); stored upper-case. */
export const isCurrency = (v: unknown): v is string => typeof v === 'string' && isCurrencyCode(v.toUpperCase());

export function isMetadata(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v) || Object.keys(v).length > METADATA_MAX_KEYS) return false;
  return Buffer.byteLength(JSON.stringify(v)) <= METADATA_MAX_BYTES;
}

const IsAmount = (min = 0) => IsValidWhen((v) => isAmount(v, min), min ? AMOUNT_MESSAGE.replace('between 0', `between ${min}`) : AMOUNT_MESSAGE);
const IsMetadata = () => IsValidWhen(isMetadata, METADATA_MESSAGE);

const METADATA_DOC = {
  type: 'object',
  additionalProperties: true,
  maxProperties: METADATA_MAX_KEYS,
  nullable: true,
  description: `At most ${METADATA_MAX_KEYS} keys and ${METADATA_MAX_BYTES} bytes of JSON`,
} as const;

/** POST /api/track/lead */
export class TrackLeadDto {
  @ApiProperty({ format: 'uuid', description: 'The `dl_click` value the redirect appended to the destination' })
  @IsUuidField()
  clickId!: string;

  @ApiProperty({ maxLength: 100, example: 'Sign up' })
  @IsNonEmptyStringMax(100)
  eventName!: string;

  @ApiProperty({ maxLength: 100, description: "The organization's own id for the customer" })
  @IsNonEmptyStringMax(100)
  customerExternalId!: string;

  @ApiPropertyOptional({ maxLength: 200, nullable: true })
  @IsOptional()
  @IsStringMax(200)
  customerName?: string | null;

  @ApiPropertyOptional({ maxLength: 320, nullable: true })
  @IsOptional()
  @IsStringMax(320)
  customerEmail?: string | null;

  @ApiPropertyOptional(METADATA_DOC)
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown> | null;
}

/** POST /api/track/sale */
export class TrackSaleDto {
  @ApiProperty({ maxLength: 100 })
  @IsNonEmptyStringMax(100)
  customerExternalId!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_AMOUNT, description: "In the currency's minor units (cents)" })
  @IsAmount()
  amount!: number;

  @ApiProperty({ example: 'USD', description: 'ISO 4217' })
  @IsValidWhen(isCurrency, CURRENCY_MESSAGE)
  currency!: string;

  @ApiPropertyOptional({ maxLength: 100, default: 'Purchase' })
  @IsOmittable()
  @IsNonEmptyStringMax(100)
  eventName?: string;

  @ApiPropertyOptional({ maxLength: 200, nullable: true, description: 'A repeated invoice id answers the existing sale' })
  @IsOptional()
  @IsNonEmptyStringMax(200)
  invoiceId?: string | null;

  @ApiPropertyOptional({ maxLength: 50, nullable: true, example: 'stripe' })
  @IsOptional()
  @IsNonEmptyStringMax(50)
  paymentProcessor?: string | null;

  @ApiPropertyOptional(METADATA_DOC)
  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown> | null;
}

/** POST /api/track/refund */
export class TrackRefundDto {
  @ApiProperty({ maxLength: 200 })
  @IsNonEmptyStringMax(200)
  invoiceId!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_AMOUNT, description: 'Default: what is left of the sale' })
  @IsOmittable()
  @IsAmount(1)
  amount?: number;
}
