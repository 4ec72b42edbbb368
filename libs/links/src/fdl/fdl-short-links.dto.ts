import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional } from 'class-validator';
import { IsStringMax } from '@dl/platform/validation';

/*
 * Firebase Dynamic Links' `POST /v1/shortLinks` shapes (firebase.google.com/docs/reference/dynamic-links/link-shortener):
 * the documented request and response, so an app switches by changing its host and key.
 * The nested objects are read by FdlShortLinksService (errors name their path).
 */

export class FdlAndroidInfoDto {
  @ApiPropertyOptional() androidPackageName?: string;
  @ApiPropertyOptional() androidFallbackLink?: string;
  @ApiPropertyOptional() androidMinPackageVersionCode?: string;
}

export class FdlIosInfoDto {
  @ApiPropertyOptional() iosBundleId?: string;
  @ApiPropertyOptional() iosFallbackLink?: string;
  @ApiPropertyOptional() iosCustomScheme?: string;
  @ApiPropertyOptional() iosIpadFallbackLink?: string;
  @ApiPropertyOptional() iosIpadBundleId?: string;
  @ApiPropertyOptional() iosAppStoreId?: string;
}

export class FdlGooglePlayAnalyticsDto {
  @ApiPropertyOptional() utmSource?: string;
  @ApiPropertyOptional() utmMedium?: string;
  @ApiPropertyOptional() utmCampaign?: string;
  @ApiPropertyOptional() utmTerm?: string;
  @ApiPropertyOptional() utmContent?: string;
}

export class FdlAnalyticsInfoDto {
  @ApiPropertyOptional({ type: FdlGooglePlayAnalyticsDto }) googlePlayAnalytics?: FdlGooglePlayAnalyticsDto;
}

export class FdlSocialMetaTagInfoDto {
  @ApiPropertyOptional() socialTitle?: string;
  @ApiPropertyOptional() socialDescription?: string;
  @ApiPropertyOptional() socialImageLink?: string;
}

export class FdlDesktopInfoDto {
  @ApiPropertyOptional() desktopFallbackLink?: string;
}

export class FdlNavigationInfoDto {
  @ApiPropertyOptional() enableForcedRedirect?: boolean;
}

export class DynamicLinkInfoDto {
  @ApiPropertyOptional({ example: 'https://go.example.com', description: 'A verified domain of the organization (https://<domain>)' }) domainUriPrefix?: string;
  @ApiPropertyOptional({ example: 'go.example.com', deprecated: true, description: "FDL's older name for the domain (no scheme), read when domainUriPrefix is absent" }) dynamicLinkDomain?: string;
  @ApiProperty({ example: 'https://example.com/welcome', description: 'The deep link: an http(s) URL' }) link!: string;
  @ApiPropertyOptional({ type: FdlAndroidInfoDto }) androidInfo?: FdlAndroidInfoDto;
  @ApiPropertyOptional({ type: FdlIosInfoDto }) iosInfo?: FdlIosInfoDto;
  @ApiPropertyOptional({ type: FdlNavigationInfoDto }) navigationInfo?: FdlNavigationInfoDto;
  @ApiPropertyOptional({ type: FdlAnalyticsInfoDto }) analyticsInfo?: FdlAnalyticsInfoDto;
  @ApiPropertyOptional({ type: FdlSocialMetaTagInfoDto }) socialMetaTagInfo?: FdlSocialMetaTagInfoDto;
  @ApiPropertyOptional({ type: FdlDesktopInfoDto }) desktopInfo?: FdlDesktopInfoDto;
}

export const FDL_SUFFIX_OPTIONS = ['SHORT', 'UNGUESSABLE'] as const;

export class FdlSuffixDto {
  @ApiProperty({ enum: FDL_SUFFIX_OPTIONS }) option!: (typeof FDL_SUFFIX_OPTIONS)[number];
}

/** POST /v1/shortLinks: `longDynamicLink` or `dynamicLinkInfo`, and the suffix option. */
export class FdlShortLinkRequestDto {
  @ApiPropertyOptional({ example: 'https://go.example.com/?link=https://example.com/welcome&apn=com.example.app' })
  @IsOptional()
  @IsStringMax(8000)
  longDynamicLink?: string;

  @ApiPropertyOptional({ type: DynamicLinkInfoDto })
  @IsOptional()
  @IsObject({ message: 'Must be an object' })
  dynamicLinkInfo?: DynamicLinkInfoDto;

  @ApiPropertyOptional({ type: FdlSuffixDto })
  @IsOptional()
  @IsObject({ message: 'Must be an object' })
  suffix?: FdlSuffixDto;
}

export class FdlWarningDto {
  @ApiProperty({ example: 'NOT_IMPLEMENTED' }) warningCode!: string;
  @ApiProperty() warningMessage!: string;
}

/** FDL's answer: the short link, its preview page (`/preview` on the redirect host), and what was accepted but not applied. */
export class FdlShortLinkResponseDto {
  @ApiProperty({ example: 'https://go.example.com/AbC123x' }) shortLink!: string;
  @ApiProperty({ example: 'https://go.example.com/AbC123x/preview', description: 'A page showing where the link leads on each platform (no click recorded)' }) previewLink!: string;
  @ApiProperty({ type: [FdlWarningDto] }) warning!: FdlWarningDto[];
}

/** `suffix.option` values (checked by the service with the nested fields). */
export const isFdlSuffixOption = (v: unknown): v is FdlSuffixDto['option'] => (FDL_SUFFIX_OPTIONS as readonly unknown[]).includes(v);
