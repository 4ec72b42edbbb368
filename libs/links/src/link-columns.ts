import { Prisma } from '@dl/platform/db';
import { LINK_FIELD_KEYS, LINK_FIELDS, linkField, LinkFieldKind } from '@dl/link-fields';
import { LinkRecord, LinkValues } from './link.types';

type Cast = '' | '::jsonb' | '::text[]' | '::timestamptz' | '::uuid' | '::int' | '::boolean';

/** A field kind's SQL cast (the column's type). */
const KIND_CASTS: Record<LinkFieldKind, Cast> = {
  text: '',
  url: '',
  secret: '',
  int: '::int',
  boolean: '::boolean',
  date: '::timestamptz',
  tags: '::text[]',
  json: '::jsonb',
};

export const DEFAULT_ATTRIBUTION_WINDOW_HOURS = LINK_FIELDS.attributionWindowHours.fallback;

/**
 * Editable link fields → [column, SQL cast, value when neither the request nor the template
 * gives one], from the fields' declaration (@dl/link-fields). The insert, the update, the
 * select, the row mapper and the defaults of a new link are all built from it.
 */
export const VALUE_COLUMNS = Object.fromEntries(
  LINK_FIELD_KEYS.map((key) => {
    const field = linkField(key);
    return [key, [field.column, KIND_CASTS[field.kind], field.fallback ?? null]];
  }),
) as { [K in keyof LinkValues]: [string, Cast, LinkValues[K]] };

/** What an editable field is when neither the request nor the template gives it. */
export const LINK_VALUE_FALLBACKS = Object.fromEntries(
  Object.entries(VALUE_COLUMNS).map(([key, [, , fallback]]) => [key, fallback]),
) as unknown as LinkValues;

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
  ['safetyStatus', 'safety_status', ''],
  ['safetyReason', 'safety_reason', ''],
  ['safetyCheckedAt', 'safety_checked_at', '::timestamptz'],
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
