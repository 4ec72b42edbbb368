import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { IsIntBetween } from './validators';

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);

/** GET /api/links/:id/qr options (decisions §6a). */
export class QrQueryDto {
  @ApiPropertyOptional({ enum: ['png', 'svg'], default: 'png' })
  @IsOptional()
  @IsIn(['png', 'svg'], { message: 'Must be png or svg' })
  format?: 'png' | 'svg';

  @ApiPropertyOptional({ minimum: 64, maximum: 2048, default: 512 })
  @IsOptional()
  @Transform(toInt)
  @IsIntBetween(64, 2048, 'Must be an integer between 64 and 2048')
  size?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 16, default: 2 })
  @IsOptional()
  @Transform(toInt)
  @IsIntBetween(0, 16, 'Must be an integer between 0 and 16')
  margin?: number;

  @ApiPropertyOptional({ example: '000000', description: 'Foreground colour RRGGBB' })
  @IsOptional()
  @Matches(/^[0-9A-Fa-f]{6}$/, { message: 'Must be a colour RRGGBB' })
  fg?: string;

  @ApiPropertyOptional({ example: 'FFFFFF', description: 'Background colour RRGGBB' })
  @IsOptional()
  @Matches(/^[0-9A-Fa-f]{6}$/, { message: 'Must be a colour RRGGBB' })
  bg?: string;

  @ApiPropertyOptional({ enum: ['L', 'M', 'Q', 'H'], default: 'M' })
  @IsOptional()
  @IsIn(['L', 'M', 'Q', 'H'], { message: 'Must be L, M, Q or H' })
  ecc?: 'L' | 'M' | 'Q' | 'H';
}
