import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_SCOPES, ApiKeyScope } from './api-key-scopes';

/** A key as listings and renames show it: its masked prefix, never the secret. */
export class ApiKeyResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Masked prefix of the key' }) keyPrefix!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Client IP of the last recorded use' }) lastUsedIp!: string | null;
  @ApiProperty({ enum: API_KEY_SCOPES, enumName: 'ApiKeyScope', isArray: true }) scopes!: ApiKeyScope[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'After this instant the key answers 401' })
  expiresAt!: string | null;
}

export class ApiKeyListResponseDto {
  @ApiProperty({ type: [ApiKeyResponseDto] }) keys!: ApiKeyResponseDto[];
}

/** POST /api/keys: the only answer that carries the secret (decisions §2). */
export class CreatedApiKeyResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The full `dl_` key, shown once' }) key!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null on creation' }) lastUsedAt!: null;
  @ApiProperty({ enum: API_KEY_SCOPES, enumName: 'ApiKeyScope', isArray: true }) scopes!: ApiKeyScope[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: string | null;
}
