import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';

export class MonthlyReportQueryDto {
  @ApiPropertyOptional({ enum: ['1', '0'], description: 'Rebuild a finished month from current data (workspace owner only)' })
  @IsOptional()
  @IsIn(['0', '1'], { message: 'Must be 1 or 0' })
  regenerate?: string;
}
