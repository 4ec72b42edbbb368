import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { ABUSE_CATEGORIES, AbuseCategory } from '@dl/safety';

/** POST /abuse/reports (decisions §22). */
export class CreateAbuseReportDto {
  @ApiProperty({ example: 'https://dl.example/abc1234', description: 'The short link reported (one of this service)' })
  @IsString({ message: 'Must be a short link of this service' })
  @MaxLength(2048, { message: 'Must be a short link of this service' })
  url!: string;

  @ApiProperty({ enum: ABUSE_CATEGORIES })
  @IsIn(ABUSE_CATEGORIES, { message: `Must be one of ${ABUSE_CATEGORIES.join(', ')}` })
  category!: AbuseCategory;

  @ApiPropertyOptional({ maxLength: 2000 })
  @IsOptional()
  @IsString({ message: 'Must be at most 2000 characters' })
  @MaxLength(2000, { message: 'Must be at most 2000 characters' })
  details?: string;

  @ApiPropertyOptional({ format: 'email' })
  @IsOptional()
  @IsEmail({}, { message: 'Must be a valid email address' })
  @MaxLength(254, { message: 'Must be a valid email address' })
  reporterEmail?: string;
}

export class AbuseReportCreatedDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
}
