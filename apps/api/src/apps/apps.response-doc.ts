import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI documentation of the app responses (libs/sdk/src/apps.dto.ts). */
export class AppResponseDoc {
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

export class CreatedAppResponseDoc extends AppResponseDoc {
  @ApiProperty({ description: 'The secret SDK token, shown once' }) appToken!: string;
}

export class AppSuccessResponseDoc {
  @ApiProperty({ enum: [true], example: true }) success!: true;
}
