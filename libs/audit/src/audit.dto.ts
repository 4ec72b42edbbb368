import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsStringMax, IsValidWhen, parseIsoDate } from '@dl/platform/validation';
import { AUDIT_ACTIONS, isAuditAction } from './audit-actions';

const LIMIT_FIELD = { message: 'Must be between 1 and 200' };
const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);
export const AUDIT_CURSOR_MESSAGE = 'Must be a cursor from a previous X-Next-Cursor header';
const DATE_MESSAGE = 'Must be an ISO 8601 date';

/** GET /api/audit-log and its CSV export: filters combine. */
export class AuditLogQueryDto {
  @ApiPropertyOptional({ enum: Object.keys(AUDIT_ACTIONS), description: 'Only this action' })
  @IsOptional()
  @IsValidWhen(isAuditAction, 'Must be a known action')
  action?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'Only entries by this actor (a user or API key id)' })
  @IsOptional()
  @IsStringMax(64)
  actorId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Only entries about this target' })
  @IsOptional()
  @IsStringMax(200)
  targetId?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or after this instant' })
  @IsOptional()
  @IsValidWhen((v) => parseIsoDate(v) !== null, DATE_MESSAGE)
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Entries at or before this instant' })
  @IsOptional()
  @IsValidWhen((v) => parseIsoDate(v) !== null, DATE_MESSAGE)
  to?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50, description: 'Page size; X-Next-Cursor names the next page' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt(LIMIT_FIELD)
  @Min(1, LIMIT_FIELD)
  @Max(200, LIMIT_FIELD)
  limit?: number;

  @ApiPropertyOptional({ description: 'The X-Next-Cursor of the previous page (opaque)' })
  @IsOptional()
  @IsStringMax(200, { message: AUDIT_CURSOR_MESSAGE })
  cursor?: string;
}

export class AuditActorDto {
  @ApiProperty({ enum: ['user', 'apiKey', 'system'] }) type!: 'user' | 'apiKey' | 'system';
  @ApiProperty({ type: String, nullable: true }) id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The user's or key's current name" }) name!: string | null;
}

export class AuditEntryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: AuditActorDto }) actor!: AuditActorDto;
  @ApiProperty({ example: 'link.created' }) action!: string;
  @ApiProperty({ example: 'link' }) targetType!: string;
  @ApiProperty({ type: String, nullable: true }) targetId!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'What changed; secrets redacted' })
  changes!: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ type: String, nullable: true }) userAgent!: string | null;
  @ApiProperty({ type: String, nullable: true }) requestId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class AuditLogResponseDto {
  @ApiProperty({ type: [AuditEntryDto] }) entries!: AuditEntryDto[];
}

export class AuditVerifyResponseDto {
  @ApiProperty({ description: 'Every entry kept links to its predecessor and hashes as stored' }) valid!: boolean;
  @ApiProperty({ description: 'Entries checked' }) entries!: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The first entry that does not hold' })
  firstBrokenId!: string | null;
}
