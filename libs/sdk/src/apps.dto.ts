import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  ValidateIf,
} from 'class-validator';
import type { App } from '@dl/platform/db';
import { ShapeAgrees } from '@dl/platform/http';
import { AppResponseDto, CreatedAppResponseDto } from './app-response.dto';
import { IsResourceName } from './resource-name';

export class CreateAppDto {
  @IsResourceName('Shop')
  name: string;

  @ApiProperty({ enum: ['ios', 'android'] })
  @IsIn(['ios', 'android'], { message: 'Must be one of: ios, android' })
  platform: 'ios' | 'android';

  /** Required for iOS apps. */
  @ApiPropertyOptional({ description: 'Required for iOS apps', example: 'com.example.shop' })
  @ValidateIf((o: CreateAppDto) => o.platform === 'ios' || o.bundleId !== undefined)
  @IsString({ message: 'Must be a string' })
  @Matches(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, { message: 'Must be a reverse-DNS bundle identifier' })
  bundleId?: string;

  /** Required for Android apps. */
  @ApiPropertyOptional({ description: 'Required for Android apps', example: 'com.example.shop' })
  @ValidateIf((o: CreateAppDto) => o.platform === 'android' || o.packageName !== undefined)
  @IsString({ message: 'Must be a string' })
  @Matches(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/, { message: 'Must be a Java package name' })
  packageName?: string;

  @ApiPropertyOptional({ example: 'https://apps.apple.com/app/id123456789' })
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true }, { message: 'Must be a valid URL' })
  appStoreUrl?: string;

  @ApiPropertyOptional({ description: 'Apple team id (10 characters)', example: 'ABCDE12345' })
  @IsOptional()
  @Matches(/^[A-Z0-9]{10}$/, { message: 'Must be 10 upper-case letters or digits' })
  teamId?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 20, description: 'SHA-256 signing certificate fingerprints (Android)' })
  @IsOptional()
  @IsArray({ message: 'Must be an array' })
  @ArrayMaxSize(20, { message: 'At most 20 fingerprints' })
  @Matches(/^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$/, {
    each: true,
    message: 'Each must be a SHA-256 fingerprint (32 colon-separated hex bytes)',
  })
  sha256Fingerprints?: string[];
}

export function toAppResponse(app: App) {
  return {
    id: app.id,
    name: app.name,
    platform: app.platform,
    bundleId: app.bundleId,
    packageName: app.packageName,
    appStoreUrl: app.appStoreUrl,
    teamId: app.teamId,
    sha256Fingerprints: app.sha256Fingerprints,
    tokenPrefix: app.tokenPrefix,
    createdAt: app.createdAt.toISOString(),
    lastSeenAt: app.lastSeenAt ? app.lastSeenAt.toISOString() : null,
  };
}

export function toCreatedAppResponse(app: App, appToken: string) {
  return { ...toAppResponse(app), appToken };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const APP_SHAPES_AGREE: [
  ShapeAgrees<AppResponseDto, ReturnType<typeof toAppResponse>>,
  ShapeAgrees<CreatedAppResponseDto, ReturnType<typeof toCreatedAppResponse>>,
] = [true, true];
