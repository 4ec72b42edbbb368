import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsNonEmptyStringMax, IsUuidField } from '@dl/platform/validation';

export const CONFLICT_STRATEGIES = ['skip', 'overwrite', 'rename'] as const;
export type ConflictStrategy = (typeof CONFLICT_STRATEGIES)[number];

/** The form fields of POST /migrations/import (the `file` part is the CSV). */
export class ImportOptionsDto {
  @ApiProperty({
    example: 'auto',
    description: 'The platform the links come from: `auto` recognizes the export from its header; bitly, rebrandly, shortio, dub, shlink, kutt, yourls, firebase read that export',
  })
  @IsNonEmptyStringMax(50)
  platform: string;

  @ApiPropertyOptional({ enum: CONFLICT_STRATEGIES, default: 'skip' })
  @IsOptional()
  @IsIn(CONFLICT_STRATEGIES, { message: 'Must be skip, overwrite or rename' })
  conflictStrategy?: ConflictStrategy;

  @ApiProperty({ format: 'uuid' })
  @IsUuidField()
  templateId: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUuidField()
  projectId?: string;

  @ApiPropertyOptional({ example: 'go.example.com', description: 'A verified domain of the organization: rows without a domain cell keep their codes there' })
  @IsOptional()
  @IsNonEmptyStringMax(253)
  domain?: string;
}

export class ImportRowErrorDto {
  @ApiProperty({ description: 'CSV row number' }) row!: number;
  @ApiProperty() message!: string;
}

/** POST /migrations/import: per-row outcome (the type the import builds and the OpenAPI schema). */
export class ImportResultDto {
  @ApiProperty() imported!: number;
  @ApiProperty() skipped!: number;
  @ApiProperty() failed!: number;
  @ApiProperty({ type: [ImportRowErrorDto] }) errors!: ImportRowErrorDto[];
}
