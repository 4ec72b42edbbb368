import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Length, Matches } from 'class-validator';
import type { PixelSite } from '@dl/platform/db';
import { ShapeAgrees } from '@dl/platform/http';
import { PixelSiteResponseDto } from './pixel-site-response.dto';
import { IsResourceName } from './resource-name';

const lowerTrim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

export class CreatePixelSiteDto {
  @IsResourceName('Marketing site')
  name: string;

  /** A host name such as `shop.example.com` (no scheme, no path). */
  @ApiProperty({ maxLength: 253, example: 'www.example.com' })
  @Transform(lowerTrim)
  @IsString({ message: 'Must be a string' })
  @Length(1, 253, { message: 'Must be a valid domain' })
  @Matches(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/, {
    message: 'Must be a valid domain',
  })
  domain: string;
}

export function toPixelSiteResponse(site: PixelSite) {
  return {
    id: site.id,
    name: site.name,
    domain: site.domain,
    siteKey: site.siteKey,
    createdAt: site.createdAt.toISOString(),
    lastSeenAt: site.lastSeenAt ? site.lastSeenAt.toISOString() : null,
  };
}

/** Compile-time agreement of the mapper with its response class (see ShapeAgrees). */
export const PIXEL_SITE_SHAPES_AGREE: [ShapeAgrees<PixelSiteResponseDto, ReturnType<typeof toPixelSiteResponse>>] = [true];
