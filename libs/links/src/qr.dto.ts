import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { IsIntBetween } from '@dl/platform/validation';

export const QR_SIZES = [128, 256, 512, 1024, 2048];

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : value);

/** GET /api/links/:id/qr options (decisions §6a). */
export class QrQueryDto {
  @ApiPropertyOptional({ enum: ['png', 'svg'], default: 'png' })
  @IsOptional()
  @IsIn(['png', 'svg'], { message: 'Must be png or svg' })
  format?: 'png' | 'svg';

  /** Decisions §14: a fixed set of sizes, so cached variants stay few and a render's cost is bounded. */
  @ApiPropertyOptional({ enum: QR_SIZES, default: 512 })
  @IsOptional()
  @Transform(toInt)
  @IsIn(QR_SIZES, { message: `Must be one of ${QR_SIZES.join(', ')}` })
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
