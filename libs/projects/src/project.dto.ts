import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IsNonEmptyStringMax, IsOmittable, IsStringMax } from '@dl/platform/validation';

export class CreateProjectDto {
  @ApiProperty({ maxLength: 100 })
  @IsNonEmptyStringMax(100)
  name: string;

  @ApiPropertyOptional({ maxLength: 1000, nullable: true })
  @IsOptional()
  @IsStringMax(1000)
  description?: string | null;
}

export class UpdateProjectDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOmittable()
  @IsNonEmptyStringMax(100)
  name?: string;

  @ApiPropertyOptional({ maxLength: 1000, nullable: true })
  @IsOptional()
  @IsStringMax(1000)
  description?: string | null;
}
