import { ApiProperty } from '@nestjs/swagger';

/** An app as /api/apps lists it (type of toAppResponse and OpenAPI schema). */
export class AppResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['ios', 'android'] }) platform!: 'ios' | 'android';
  @ApiProperty({ type: String, nullable: true }) bundleId!: string | null;
  @ApiProperty({ type: String, nullable: true }) packageName!: string | null;
  @ApiProperty({ type: String, nullable: true }) appStoreUrl!: string | null;
  @ApiProperty({ type: String, nullable: true }) teamId!: string | null;
  @ApiProperty({ type: [String] }) sha256Fingerprints!: string[];
  @ApiProperty({ description: 'Masked token: `dla_` + 8 hex + `…`', example: 'dla_1a2b3c4d…' }) tokenPrefix!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSeenAt!: string | null;
}

/** POST /api/apps: the app plus its secret SDK token, shown once. */
export class CreatedAppResponseDto extends AppResponseDto {
  @ApiProperty({ description: 'The secret SDK token, shown once' }) appToken!: string;
}
