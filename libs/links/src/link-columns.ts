import { Prisma } from '@dl/platform/db';
import { LinkRecord, LinkValues } from './link.types';

type Cast = '' | '::jsonb' | '::text[]' | '::timestamptz' | '::uuid' | '::int' | '::boolean';

/**
 * Editable link fields → [column, SQL cast]: the one column list of the link shape.
 * The insert, the update, the select and the row mapper below are all built from it,
 * so a new editable field is one line here (plus its type, DTO, default and doc).
 */
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
  passwordHash: ['password_hash', ''],
  expiredUrl: ['expired_url', ''],
  maxClicks: ['max_clicks', '::int'],
  variants: ['variants', '::jsonb'],
  redirectRules: ['redirect_rules', '::jsonb'],
  cloak: ['cloak', '::boolean'],
  publicStats: ['public_stats', '::boolean'],
};

/** Columns that are not editable values: [record key, column, cast], in select order. */
const STATE_COLUMNS: Array<[keyof LinkRecord, string, Cast]> = [
  ['id', 'id', '::uuid'],
  ['organizationId', 'organization_id', '::uuid'],
  ['userId', 'user_id', '::uuid'],
  ['projectId', 'project_id', '::uuid'],
  ['templateId', 'template_id', '::uuid'],
  ['domainId', 'domain_id', '::uuid'],
  ['domainName', 'domain_name', ''],
  ['shortCode', 'short_code', ''],
  ['isActive', 'is_active', '::boolean'],
  ['clickCount', 'click_count', '::int'],
  ['migrationMetadata', 'migration_metadata', '::jsonb'],
  ['createdAt', 'created_at', '::timestamptz'],
  ['updatedAt', 'updated_at', '::timestamptz'],
];

const ALL_COLUMNS: Array<[string, string, Cast]> = [
  ...STATE_COLUMNS,
  ...Object.entries(VALUE_COLUMNS).map(([key, [column, cast]]): [string, string, Cast] => [key, column, cast]),
];

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
export const RECORD_SELECT = Prisma.raw(
  [...ALL_COLUMNS.map(([, column]) => `l.${column}`), 't.slug AS template_slug'].join(', '),
);

/** A row as `pg` returns it for RECORD_SELECT (column name → value). */
export type LinkRow = Record<string, unknown>;

const json = (v: unknown): unknown => (v === null || v === undefined ? null : typeof v === 'string' ? JSON.parse(v) : v);
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(v as string));

function fromColumn(value: unknown, cast: Cast): unknown {
  switch (cast) {
    case '::jsonb':
      return json(value);
    case '::timestamptz':
      return date(value);
    case '::int':
      return value === null || value === undefined ? null : Number(value);
    case '::text[]':
      return value ?? [];
    default:
      return value ?? null;
  }
}

export function rowToRecord(r: LinkRow): LinkRecord {
  const out: Record<string, unknown> = { templateSlug: r.template_slug };
  for (const [key, column, cast] of ALL_COLUMNS) out[key] = fromColumn(r[column], cast);
  return out as unknown as LinkRecord;
}
