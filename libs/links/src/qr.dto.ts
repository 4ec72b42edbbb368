import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, Matches } from 'class-validator';
import { IsIntBetween } from '@dl/platform/validation';

export const QR_SIZES = [128, 256, 512, 1024, 2048];
/** Decisions §24: how data modules and the three corner (finder) patterns are drawn. */
export const QR_DOTS = ['square', 'rounded', 'dots'] as const;
export const QR_CORNERS = ['square', 'rounded', 'dot'] as const;
export type QrDots = (typeof QR_DOTS)[number];
export type QrCorners = (typeof QR_CORNERS)[number];

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);
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

  @ApiPropertyOptional({ enum: QR_DOTS, default: 'square', description: 'How the data modules are drawn' })
  @IsOptional()
  @IsIn(QR_DOTS, { message: `Must be one of ${QR_DOTS.join(', ')}` })
  dots?: QrDots;

  @ApiPropertyOptional({ enum: QR_CORNERS, default: 'square', description: 'How the three corner (finder) patterns are drawn' })
  @IsOptional()
  @IsIn(QR_CORNERS, { message: `Must be one of ${QR_CORNERS.join(', ')}` })
  corners?: QrCorners;

  @ApiPropertyOptional({
    type: Boolean,
    default: true,
    description: "Draw the link's QR logo (PUT /api/links/{id}/qr/logo) in the centre, with error correction H; false leaves it out",
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'Must be true or false' })
  logo?: boolean;
}

/** A link's QR logo as stored (decisions §24). */
export class QrLogoDto {
  @ApiProperty({ enum: ['image/png', 'image/svg+xml'], description: 'Sniffed from the uploaded bytes' }) contentType!: 'image/png' | 'image/svg+xml';
  @ApiProperty({ description: 'Size of the logo in bytes (at most 102400)' }) bytes!: number;
  @ApiProperty({ description: 'Whether an SVG logo has its PNG rendering (drawn in PNG codes); true for a PNG logo' }) rasterized!: boolean;
  @ApiProperty({ description: 'SHA-256 (hex) of the logo: it changes when the logo does' }) sha256!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** GET and PUT /api/links/:id/qr/logo. */
export class QrLogoResponseDto {
  @ApiProperty({ type: QrLogoDto, nullable: true, description: 'null when the link has no logo' }) logo!: QrLogoDto | null;
}
