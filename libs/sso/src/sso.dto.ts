import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, ValidateIf } from 'class-validator';
import { DOMAIN_NAME_MESSAGE, normalizeDomainName } from '@dl/domains';
import { IsNonEmptyStringMax, IsOmittable, IsStrictBoolean, IsStringArrayOf, IsStringMax } from '@dl/platform/validation';

export type SsoTypeName = 'oidc' | 'saml';
export type SsoDomainStatusName = 'pending' | 'verified';
/** Roles a first sign-in may give (an Owner is made by an Owner, never by an identity provider). */
export const SSO_DEFAULT_ROLES = ['ADMIN', 'MEMBER', 'VIEWER'] as const;
export type SsoDefaultRole = (typeof SSO_DEFAULT_ROLES)[number];
export const MAX_SSO_DOMAINS = 20;

const present = (_o: object, v: unknown) => v !== undefined && v !== null;

/**
 * PUT /api/organization/sso (decisions §25): OIDC `{type: "oidc", issuer, clientId, clientSecret}`,
 * SAML `{type: "saml", idpMetadataXml}` or `{type: "saml", entryPoint, certificate}`; with the
 * email `domains`, `enforce` and `defaultRole`. Replaces the whole setting; `clientSecret` may be
 * left out to keep the stored one.
 */
export class PutSsoDto {
  @ApiProperty({ enum: ['oidc', 'saml'] })
  @IsIn(['oidc', 'saml'], { message: 'Must be one of: oidc, saml' })
  type: SsoTypeName;

  @ApiPropertyOptional({ format: 'uri', example: 'https://login.acme.com', description: 'OIDC: the issuer (https, or a host of SSO_ALLOW_HTTP_HOSTS)' })
  @ValidateIf(present)
  @IsStringMax(2000)
  issuer?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'OIDC: the client id registered at the identity provider' })
  @ValidateIf(present)
  @IsNonEmptyStringMax(255)
  clientId?: string;

  @ApiPropertyOptional({ maxLength: 1000, writeOnly: true, description: 'OIDC: the client secret; stored encrypted, never answered; left out keeps the stored one' })
  @ValidateIf(present)
  @IsNonEmptyStringMax(1000)
  clientSecret?: string;

  @ApiPropertyOptional({ maxLength: 200000, description: "SAML: the identity provider's metadata document" })
  @ValidateIf(present)
  @IsNonEmptyStringMax(200_000)
  idpMetadataXml?: string;

  @ApiPropertyOptional({ format: 'uri', description: "SAML: the identity provider's sign-in URL (https, or a host of SSO_ALLOW_HTTP_HOSTS)" })
  @ValidateIf(present)
  @IsStringMax(2000)
  entryPoint?: string;

  @ApiPropertyOptional({ maxLength: 20000, description: "SAML: the identity provider's signing certificate (PEM or base64)" })
  @ValidateIf(present)
  @IsNonEmptyStringMax(20_000)
  certificate?: string;

  @ApiPropertyOptional({ type: [String], example: ['acme.com'], maxItems: MAX_SSO_DOMAINS, description: 'Email domains, each verified by a TXT record; default none' })
  @IsOmittable()
  @IsStringArrayOf((s) => normalizeDomainName(s) !== null, `Must be a list of at most ${MAX_SSO_DOMAINS} domain names (${DOMAIN_NAME_MESSAGE})`, MAX_SSO_DOMAINS)
  domains?: string[];

  @ApiPropertyOptional({ default: false, description: 'Refuse password login and reset for emails of the verified domains' })
  @IsOmittable()
  @IsStrictBoolean()
  enforce?: boolean;

  @ApiPropertyOptional({ enum: SSO_DEFAULT_ROLES, default: 'MEMBER', description: 'The role of a member created by a first sign-in' })
  @IsOmittable()
  @IsIn(SSO_DEFAULT_ROLES, { message: `Must be one of: ${SSO_DEFAULT_ROLES.join(', ')}` })
  defaultRole?: SsoDefaultRole;
}

export class SsoVerificationDto {
  @ApiProperty({ enum: ['TXT'] }) type!: 'TXT';
  @ApiProperty({ example: '_dl-sso.acme.com' }) name!: string;
  @ApiProperty({ example: 'dl-sso=0123456789abcdef0123456789abcdef' }) value!: string;
}

export class SsoDomainResponseDto {
  @ApiProperty({ example: 'acme.com' }) domain!: string;
  @ApiProperty({ enum: ['pending', 'verified'] }) status!: SsoDomainStatusName;
  @ApiProperty({ type: SsoVerificationDto }) verification!: SsoVerificationDto;
}

/** The SSO setting as PUT, GET and verify answer it: never the client secret. */
export class SsoResponseDto {
  @ApiProperty({ enum: ['oidc', 'saml'] }) type!: SsoTypeName;
  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'OIDC' }) issuer!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'OIDC' }) clientId!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri', description: 'SAML' }) entryPoint!: string | null;
  @ApiProperty({ type: [SsoDomainResponseDto] }) domains!: SsoDomainResponseDto[];
  @ApiProperty() enforce!: boolean;
  @ApiProperty({ enum: SSO_DEFAULT_ROLES }) defaultRole!: SsoDefaultRole;
}
