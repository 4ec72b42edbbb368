import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { API_KEY_SCOPES, ApiKeyScope, isApiKeyScope } from '@dl/auth';
import { IsFutureIsoDate, IsOmittable, IsValidWhen } from '@dl/platform/validation';

const NAME_MESSAGE = 'Must be 1-100 characters';
const SCOPES_MESSAGE = `Must be a non-empty list of: ${API_KEY_SCOPES.join(', ')}`;

/** A non-empty list of distinct known scopes. */
function isScopeList(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0 && value.length <= API_KEY_SCOPES.length && value.every(isApiKeyScope) && new Set(value).size === value.length;
}

/** `name`: a string of 1-100 characters, not all blank (checked in this order: the first failure is the message). */
function KeyName(): PropertyDecorator {
  return applyDecorators(
    IsString({ message: 'Must be a string' }),
    IsNotEmpty({ message: NAME_MESSAGE }),
    Matches(/\S/, { message: NAME_MESSAGE }),
    MaxLength(100, { message: NAME_MESSAGE }),
  );
}

/** `scopes`: optional on create and update; when sent, a non-empty list of distinct known scopes. */
function KeyScopes(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ enum: API_KEY_SCOPES, enumName: 'ApiKeyScope', isArray: true, description: 'Default `all`' }),
    IsOmittable(),
    IsValidWhen(isScopeList, SCOPES_MESSAGE),
  );
}

/** `expiresAt`: optional on create and update; a future instant, or null for never. */
function KeyExpiry(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'A future instant; null or absent: never' }),
    IsOptional(),
    IsFutureIsoDate(),
  );
}

export class CreateApiKeyDto {
  @ApiProperty({ example: 'CI pipeline', maxLength: 100 })
  @KeyName()
  name: string;

  @KeyScopes()
  scopes?: ApiKeyScope[];

  @KeyExpiry()
  expiresAt?: string | null;
}

/** PATCH /api/keys/:id: any of name, scopes and expiry (decisions §25). */
export class UpdateApiKeyDto {
  @ApiPropertyOptional({ example: 'CI pipeline', maxLength: 100 })
  @IsOmittable()
  @KeyName()
  name?: string;

  @KeyScopes()
  scopes?: ApiKeyScope[];

  @KeyExpiry()
  expiresAt?: string | null;
}

/** `expiresAt` of a body: undefined when absent, null to clear, else the instant. */
export function expiryOf(body: { expiresAt?: string | null }): Date | null | undefined {
  if (body.expiresAt === undefined) return undefined;
  return body.expiresAt === null ? null : new Date(body.expiresAt);
}
