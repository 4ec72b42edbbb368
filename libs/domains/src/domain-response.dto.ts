import { ApiProperty } from '@nestjs/swagger';
import { DomainStatusName } from './domain.dto';

export class DomainVerificationDto {
  @ApiProperty({ enum: ['TXT'] }) type!: 'TXT';
  @ApiProperty({ example: '_dl-verify.go.acme.com' }) name!: string;
  @ApiProperty({ example: 'dl-verify=0123456789abcdef0123456789abcdef' }) value!: string;
}

/** decisions §15: one shape for create, list items, read, update and verify (type of toDomainResponse and OpenAPI schema). */
export class DomainResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'go.acme.com', description: 'Lower-cased; an IDN as punycode' }) domain!: string;
  @ApiProperty({ enum: ['pending', 'verified', 'invalid'] }) status!: DomainStatusName;
  @ApiProperty({ type: DomainVerificationDto }) verification!: DomainVerificationDto;
  @ApiProperty() isDefault!: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) rootRedirectUrl!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) notFoundUrl!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) verifiedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) lastCheckedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last DNS check failed' }) verificationError!: string | null;
}
