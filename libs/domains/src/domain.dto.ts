import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, ValidateIf } from 'class-validator';
import { IsHttpUrl, IsValidWhen } from '@dl/platform/validation';
import { DOMAIN_NAME_MESSAGE, normalizeDomainName } from './domain-name';

export class CreateDomainDto {
  @ApiProperty({
    example: 'go.acme.com',
    maxLength: 253,
    description: 'A DNS name of 2+ labels; upper case is lower-cased and an IDN is stored as punycode',
  })
  @IsValidWhen((v) => normalizeDomainName(v) !== null, DOMAIN_NAME_MESSAGE)
  domain: string;
}

export class UpdateDomainDto {
  @ApiPropertyOptional({ description: 'Only a verified domain can be the default; one default per organization' })
  @IsOptional()
  @IsBoolean({ message: 'Must be a boolean' })
  isDefault?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', description: 'Where `GET /` on the domain redirects (302)' })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @IsHttpUrl()
  rootRedirectUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', description: 'Where an unknown code on the domain redirects (302)' })
  @ValidateIf((_o, v) => v !== null && v !== undefined)
  @IsHttpUrl()
  notFoundUrl?: string | null;
}

export type DomainStatusName = 'pending' | 'verified' | 'invalid';
