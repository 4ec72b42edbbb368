import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsUUID,
  Max,
  Min,
  registerDecorator,
  ValidateIf,
  ValidationArguments,
} from 'class-validator';
import { DeliveryStatus } from '@dl/platform/db';
import { ShapeAgrees } from '@dl/platform/http';
import { WebhookEventTypes } from './webhook-events';
import { isHttpScheme, parseUrl } from '@dl/platform/validation';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Why a webhook URL is refused at the edge (SSRF is checked again at connect time), or null. */
export function webhookUrlProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !value.trim()) return 'Must be a valid URL';
  if (value.length > WEBHOOK_URL_MAX_LENGTH) return `Must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  const url = parseUrl(value);
  if (!url) return 'Must be a valid URL';
  if (!isHttpScheme(url)) return 'Must be an http or https URL';
  if (!url.hostname) return 'Must be a valid URL';
  if (url.username || url.password) return 'Must not contain credentials';
  return null;
}

function IsWebhookUrl(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isWebhookUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => webhookUrlProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) => webhookUrlProblem(args?.value) ?? 'Must be a valid URL',
      },
    });
}

const EVENTS_MESSAGE = `Must be a non-empty array of: ${WebhookEventTypes.join(', ')}`;
const uniq = ({ value }: { value: unknown }) => (Array.isArray(value) ? [...new Set(value)] : value);

export class CreateWebhookDto {
  @ApiProperty({ example: 'https://example.com/hooks/deeplink' })
  @IsWebhookUrl()
  url: string;

  @ApiProperty({ enum: WebhookEventTypes, isArray: true })
  @Transform(uniq)
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @ArrayMaxSize(WebhookEventTypes.length, { message: EVENTS_MESSAGE })
  @IsIn(WebhookEventTypes, { each: true, message: `Unknown event type; expected one of: ${WebhookEventTypes.join(', ')}` })
  events: string[];

  @ApiPropertyOptional({ format: 'uuid', description: 'Only events of this project' })
  @IsOptional()
  @IsUUID('all', { message: 'Must be a valid UUID' })
  projectId?: string;
}

export class UpdateWebhookDto {
  @ApiPropertyOptional()
  @ValidateIf((_, v) => v !== undefined)
  @IsWebhookUrl()
  url?: string;

  @ApiPropertyOptional({ enum: WebhookEventTypes, isArray: true })
  @ValidateIf((_, v) => v !== undefined)
  @Transform(uniq)
  @IsArray({ message: EVENTS_MESSAGE })
  @ArrayNotEmpty({ message: EVENTS_MESSAGE })
  @ArrayMaxSize(WebhookEventTypes.length, { message: EVENTS_MESSAGE })
  @IsIn(WebhookEventTypes, { each: true, message: `Unknown event type; expected one of: ${WebhookEventTypes.join(', ')}` })
  events?: string[];

  @ApiPropertyOptional({ format: 'uuid', nullable: true, description: 'null removes the project filter' })
  @ValidateIf((_, v) => v !== undefined && v !== null)
  @IsUUID('all', { message: 'Must be a valid UUID' })
  projectId?: string | null;

  @ApiPropertyOptional({ description: 'true re-enables a disabled webhook (clears the failure flags)' })
  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean({ message: 'Must be a boolean' })
  isActive?: boolean;
}

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));

export class ListDeliveriesQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'Must be between 1 and 100' })
  @Min(1, { message: 'Must be between 1 and 100' })
  @Max(100, { message: 'Must be between 1 and 100' })
  limit?: number;

  @ApiPropertyOptional({ enum: ['pending', 'success', 'failed'] })
  @IsOptional()
  @IsIn(['pending', 'success', 'failed'], { message: 'Must be one of: pending, success, failed' })
  status?: DeliveryStatus;
}

// ───────────── responses ─────────────

export type WebhookDisabledReason = 'endpoint_gone' | 'failing' | 'manual';

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() url: string;
  @ApiProperty({ enum: WebhookEventTypes, isArray: true }) events: string[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) projectId: string | null;
  @ApiProperty() isActive: boolean;
  @ApiProperty({ nullable: true, type: String }) disabledAt: string | null;
  @ApiProperty({ nullable: true, enum: ['endpoint_gone', 'failing', 'manual'] }) disabledReason: WebhookDisabledReason | null;
  @ApiProperty({ nullable: true, type: String, description: 'Start of the current run of failed attempts' })
  failingSince: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;
}

export class CreatedWebhookResponse extends WebhookResponse {
  @ApiProperty({ description: 'Signing secret (whsec_ + base64), shown only once' }) secret: string;
}

export class WebhookAttemptResponse {
  @ApiProperty() attempt: number;
  @ApiProperty({ nullable: true, type: Number }) statusCode: number | null;
  @ApiProperty() durationMs: number;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'First 1 KB of the answer' }) responseExcerpt: string | null;
  @ApiProperty() createdAt: string;
}

export class WebhookDeliveryResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) webhookId: string;
  @ApiProperty({ description: 'Sent as webhook-id on every attempt' }) eventId: string;
  @ApiProperty() eventType: string;
  @ApiProperty({ enum: ['pending', 'success', 'failed'] }) status: DeliveryStatus;
  @ApiProperty() attemptCount: number;
  @ApiProperty({ type: Object }) payload: unknown;
  @ApiProperty() createdAt: string;
  @ApiProperty({ nullable: true, type: String }) completedAt: string | null;
  @ApiProperty({ type: [WebhookAttemptResponse] }) attempts: WebhookAttemptResponse[];
}

export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  projectId: string | null;
  isActive: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  payload: unknown;
  createdAt: Date;
  completedAt: Date | null;
  attemptsLog: Array<{
    attempt: number;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    responseExcerpt: string | null;
    createdAt: Date;
  }>;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toWebhookResponse(w: WebhookRecord) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    projectId: w.projectId,
    isActive: w.isActive,
    disabledAt: iso(w.disabledAt),
    disabledReason: (w.disabledReason as WebhookDisabledReason | null) ?? null,
    failingSince: iso(w.failingSince),
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function toDeliveryResponse(d: DeliveryRecord) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attemptCount: d.attempts,
    payload: d.payload,
    createdAt: d.createdAt.toISOString(),
    completedAt: iso(d.completedAt),
    attempts: d.attemptsLog.map((a) => ({
      attempt: a.attempt,
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
      responseExcerpt: a.responseExcerpt,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const WEBHOOK_SHAPES_AGREE: [
  ShapeAgrees<WebhookResponse, ReturnType<typeof toWebhookResponse>>,
  ShapeAgrees<WebhookDeliveryResponse, ReturnType<typeof toDeliveryResponse>>,
] = [true, true];
