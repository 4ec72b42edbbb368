import { ApiProperty } from '@nestjs/swagger';

export class ApiKeyResponseDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Masked prefix of the key' }) keyPrefix!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt!: string | null;
}

export class ApiKeyListResponseDoc {
  @ApiProperty({ type: [ApiKeyResponseDoc] }) keys!: ApiKeyResponseDoc[];
}

/** POST /api/keys: the only response that carries the secret. */
export class CreatedApiKeyResponseDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The full `dl_` key, shown once' }) key!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null on creation' }) lastUsedAt!: null;
}
