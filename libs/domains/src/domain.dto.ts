import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, registerDecorator, ValidateIf, ValidationOptions } from 'class-validator';
import { DOMAIN_NAME_MESSAGE, normalizeDomainName } from './domain-name';

export const DOMAIN_URL_MESSAGE = 'Must be a valid URL';

/** An absolute http(s) URL with a host, at most 2,048 characters, no whitespace. */
export function isDomainTargetUrl(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048 || /\s/.test(value)) return false;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return Boolean(new URL(value).hostname);
  } catch {
    return false;
  }
}

function check(name: string, validate: (v: unknown) => boolean, message: string, options: ValidationOptions = {}): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message, ...options },
      validator: { validate },
    });
}

export class CreateDomainDto {
  @ApiProperty({
    example: 'go.acme.com',
    maxLength: 253,
    description: 'A DNS name of 2+ labels; upper case is lower-cased and an IDN is stored as punycode',
  })
  @check('isDomainName', (v) => normalizeDomainName(v) !== null, DOMAIN_NAME_MESSAGE)
  domain: string;
}

export class UpdateDomainDto {
  @ApiPropertyOptional({ description: 'Only a verified domain can be the default; one default per organization' })
  @IsOptional()
  @IsBoolean({ message: 'Must be a boolean' })
  isDefault?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', description: 'Where `GET /` on the domain redirects (302)' })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @check('isHttpUrl', isDomainTargetUrl, DOMAIN_URL_MESSAGE)
  rootRedirectUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', description: 'Where an unknown code on the domain redirects (302)' })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @check('isHttpUrl', isDomainTargetUrl, DOMAIN_URL_MESSAGE)
  notFoundUrl?: string | null;
}

export type DomainStatusName = 'pending' | 'verified' | 'invalid';

/** decisions §15: one shape for create, list items, read, update and verify. */
export interface DomainResponse {
  id: string;
  domain: string;
  status: DomainStatusName;
  verification: { type: 'TXT'; name: string; value: string };
  isDefault: boolean;
  rootRedirectUrl: string | null;
  notFoundUrl: string | null;
  createdAt: string;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  verificationError: string | null;
}
