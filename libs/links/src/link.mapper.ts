import { utmToSnake } from './link-values';
import { LinkRecord, MigrationMetadata, TargetingRules, UtmParameters } from './link.types';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function shortUrl(baseUrl: string, code: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${code}`;
}

/** Derived state: an expired link is expired the moment `expiresAt` passes (no sweeper). */
export function linkStatus(link: Pick<LinkRecord, 'isActive' | 'expiresAt'>, now = Date.now()): 'active' | 'inactive' | 'expired' {
  if (link.expiresAt && link.expiresAt.getTime() <= now) return 'expired';
  return link.isActive ? 'active' : 'inactive';
}

/** The Cloud create shape (snake_case, with `short_url`). */
export interface LinkCreateResponse {
  id: string;
  short_code: string;
  short_url: string;
  user_id: string;
  organization_id: string;
  project_id: string | null;
  template_id: string;
  template_slug: string;
  original_url: string;
  title: string | null;
  description: string | null;
  ios_url: string | null;
  android_url: string | null;
  web_fallback_url: string | null;
  app_scheme: string | null;
  ios_universal_link: string | null;
  android_app_link: string | null;
  deep_link_path: string | null;
  deep_link_parameters: Record<string, string | number | boolean> | null;
  attribution_window_hours: number;
  utm_parameters: Record<string, string> | null;
  targeting_rules: TargetingRules | null;
  og_title: string | null;
  og_description: string | null;
  og_image_url: string | null;
  tags: string[];
  is_active: boolean;
  expires_at: string | null;
  migration_metadata: MigrationMetadata | null;
  created_at: string;
  updated_at: string;
}

export function toLinkCreateResponse(link: LinkRecord, baseUrl: string): LinkCreateResponse {
  return {
    id: link.id,
    short_code: link.shortCode,
    short_url: shortUrl(baseUrl, link.shortCode),
    user_id: link.userId,
    organization_id: link.organizationId,
    project_id: link.projectId,
    template_id: link.templateId,
    template_slug: link.templateSlug,
    original_url: link.originalUrl,
    title: link.title,
    description: link.description,
    ios_url: link.iosUrl,
    android_url: link.androidUrl,
    web_fallback_url: link.webFallbackUrl,
    app_scheme: link.appScheme,
    ios_universal_link: link.iosUniversalLink,
    android_app_link: link.androidAppLink,
    deep_link_path: link.deepLinkPath,
    deep_link_parameters: link.deepLinkParameters,
    attribution_window_hours: link.attributionWindowHours,
    utm_parameters: utmToSnake(link.utmParameters),
    targeting_rules: link.targetingRules,
    og_title: link.ogTitle,
    og_description: link.ogDescription,
    og_image_url: link.ogImageUrl,
    tags: link.tags,
    is_active: link.isActive,
    expires_at: iso(link.expiresAt),
    migration_metadata: link.migrationMetadata,
    created_at: link.createdAt.toISOString(),
    updated_at: link.updatedAt.toISOString(),
  };
}

/** The Cloud read shape (camelCase): single read, PUT, bulk-update items, webhook `data`. */
export interface LinkResponse {
  id: string;
  userId: string;
  organizationId: string;
  projectId: string | null;
  templateId: string;
  templateSlug: string;
  shortCode: string;
  shortUrl: string;
  originalUrl: string;
  title: string | null;
  description: string | null;
  iosUrl: string | null;
  androidUrl: string | null;
  webFallbackUrl: string | null;
  appScheme: string | null;
  iosUniversalLink: string | null;
  androidAppLink: string | null;
  deepLinkPath: string | null;
  deepLinkParameters: Record<string, string | number | boolean> | null;
  utmParameters: UtmParameters | null;
  targetingRules: TargetingRules | null;
  attributionWindowHours: number;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImageUrl: string | null;
  tags: string[];
  expiresAt: string | null;
  isActive: boolean;
  status: 'active' | 'inactive' | 'expired';
  clickCount: number;
  migrationMetadata: MigrationMetadata | null;
  createdAt: string;
  updatedAt: string;
}

export function toLinkResponse(link: LinkRecord, baseUrl: string): LinkResponse {
  return {
    id: link.id,
    userId: link.userId,
    organizationId: link.organizationId,
    projectId: link.projectId,
    templateId: link.templateId,
    templateSlug: link.templateSlug,
    shortCode: link.shortCode,
    shortUrl: shortUrl(baseUrl, link.shortCode),
    originalUrl: link.originalUrl,
    title: link.title,
    description: link.description,
    iosUrl: link.iosUrl,
    androidUrl: link.androidUrl,
    webFallbackUrl: link.webFallbackUrl,
    appScheme: link.appScheme,
    iosUniversalLink: link.iosUniversalLink,
    androidAppLink: link.androidAppLink,
    deepLinkPath: link.deepLinkPath,
    deepLinkParameters: link.deepLinkParameters,
    utmParameters: link.utmParameters,
    targetingRules: link.targetingRules,
    attributionWindowHours: link.attributionWindowHours,
    ogTitle: link.ogTitle,
    ogDescription: link.ogDescription,
    ogImageUrl: link.ogImageUrl,
    tags: link.tags,
    expiresAt: iso(link.expiresAt),
    isActive: link.isActive,
    status: linkStatus(link),
    clickCount: link.clickCount,
    migrationMetadata: link.migrationMetadata,
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}

/** Webhook `data` for link.* events: the read shape plus `migration_metadata` (as in link.clicked). */
export function toLinkEventData(link: LinkRecord, baseUrl: string): Record<string, unknown> {
  return { ...toLinkResponse(link, baseUrl), migration_metadata: link.migrationMetadata };
}
