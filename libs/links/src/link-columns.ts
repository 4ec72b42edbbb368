import { Prisma } from '@dl/platform/db';
import { LinkRecord, LinkValues, RedirectLink } from './link.types';

type Cast = '' | '::jsonb' | '::text[]' | '::timestamptz' | '::uuid' | '::int' | '::boolean';

/** Editable link fields → [column, SQL cast]. */
export const VALUE_COLUMNS: Record<keyof LinkValues, [string, Cast]> = {
  originalUrl: ['original_url', ''],
  title: ['title', ''],
  description: ['description', ''],
  iosUrl: ['ios_url', ''],
  androidUrl: ['android_url', ''],
  webFallbackUrl: ['web_fallback_url', ''],
  appScheme: ['app_scheme', ''],
  iosUniversalLink: ['ios_universal_link', ''],
  androidAppLink: ['android_app_link', ''],
  deepLinkPath: ['deep_link_path', ''],
  deepLinkParameters: ['deep_link_parameters', '::jsonb'],
  attributionWindowHours: ['attribution_window_hours', '::int'],
  utmParameters: ['utm_parameters', '::jsonb'],
  targetingRules: ['targeting_rules', '::jsonb'],
  ogTitle: ['og_title', ''],
  ogDescription: ['og_description', ''],
  ogImageUrl: ['og_image_url', ''],
  tags: ['tags', '::text[]'],
  expiresAt: ['expires_at', '::timestamptz'],
};

/** A value as a typed SQL parameter. */
export function sqlValue(value: unknown, cast: Cast): Prisma.Sql {
  if (value === null || value === undefined) {
    return cast === '::text[]' ? Prisma.sql`'{}'::text[]` : Prisma.sql`NULL${Prisma.raw(cast)}`;
  }
  if (cast === '::jsonb') return Prisma.sql`${JSON.stringify(value)}::jsonb`;
  if (cast === '::timestamptz') return Prisma.sql`${(value as Date).toISOString()}::timestamptz`;
  return Prisma.sql`${value}${Prisma.raw(cast)}`;
}

/** Every column of a link row, qualified with `l.`, plus the template's slug. */
export const RECORD_SELECT = Prisma.raw(`
  l.id, l.organization_id, l.user_id, l.project_id, l.template_id, t.slug AS template_slug, l.short_code,
  l.original_url, l.title, l.description, l.ios_url, l.android_url, l.web_fallback_url, l.app_scheme,
  l.ios_universal_link, l.android_app_link, l.deep_link_path, l.deep_link_parameters,
  l.attribution_window_hours, l.utm_parameters, l.targeting_rules, l.og_title, l.og_description,
  l.og_image_url, l.tags, l.is_active, l.expires_at, l.click_count, l.migration_metadata,
  l.created_at, l.updated_at`);

export interface LinkRow {
  id: string;
  organization_id: string;
  user_id: string;
  project_id: string | null;
  template_id: string;
  template_slug: string;
  short_code: string;
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
  deep_link_parameters: unknown;
  attribution_window_hours: number;
  utm_parameters: unknown;
  targeting_rules: unknown;
  og_title: string | null;
  og_description: string | null;
  og_image_url: string | null;
  tags: string[] | null;
  is_active: boolean;
  expires_at: Date | null;
  click_count: number;
  migration_metadata: unknown;
  created_at: Date;
  updated_at: Date;
}

const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as T));
const date = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

export function rowToRecord(r: LinkRow): LinkRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    userId: r.user_id,
    projectId: r.project_id,
    templateId: r.template_id,
    templateSlug: r.template_slug,
    shortCode: r.short_code,
    originalUrl: r.original_url,
    title: r.title,
    description: r.description,
    iosUrl: r.ios_url,
    androidUrl: r.android_url,
    webFallbackUrl: r.web_fallback_url,
    appScheme: r.app_scheme,
    iosUniversalLink: r.ios_universal_link,
    androidAppLink: r.android_app_link,
    deepLinkPath: r.deep_link_path,
    deepLinkParameters: json(r.deep_link_parameters),
    attributionWindowHours: Number(r.attribution_window_hours),
    utmParameters: json(r.utm_parameters),
    targetingRules: json(r.targeting_rules),
    ogTitle: r.og_title,
    ogDescription: r.og_description,
    ogImageUrl: r.og_image_url,
    tags: r.tags ?? [],
    isActive: r.is_active,
    expiresAt: date(r.expires_at),
    clickCount: Number(r.click_count),
    migrationMetadata: json(r.migration_metadata),
    createdAt: date(r.created_at) as Date,
    updatedAt: date(r.updated_at) as Date,
  };
}

export function recordToRedirect(l: LinkRecord): RedirectLink {
  return {
    id: l.id,
    organizationId: l.organizationId,
    projectId: l.projectId,
    shortCode: l.shortCode,
    originalUrl: l.originalUrl,
    iosUrl: l.iosUrl,
    androidUrl: l.androidUrl,
    webFallbackUrl: l.webFallbackUrl,
    appScheme: l.appScheme,
    iosUniversalLink: l.iosUniversalLink,
    androidAppLink: l.androidAppLink,
    deepLinkPath: l.deepLinkPath,
    deepLinkParameters: l.deepLinkParameters,
    utmParameters: l.utmParameters,
    targetingRules: l.targetingRules,
    ogTitle: l.ogTitle,
    ogDescription: l.ogDescription,
    ogImageUrl: l.ogImageUrl,
    isActive: l.isActive,
    expiresAt: l.expiresAt,
    attributionWindowHours: l.attributionWindowHours,
    migrationMetadata: l.migrationMetadata,
  };
}
