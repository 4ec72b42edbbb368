import { EdgeFieldKey, LINK_EDGE_FIELDS, linkField, LinkFieldKeyOf, LinkFieldKind, LinkValues, RedirectRuleConditions } from '@dl/link-fields';
import { utmParameters } from '@dl/platform/validation';

/** A declared edge field as the snapshot holds it: dates as epoch milliseconds, the rest as stored. */
type EdgeValue<K extends EdgeFieldKey> = K extends LinkFieldKeyOf<'date'> ? number | null : LinkValues[K];

/**
 * What the edge keeps of a link (the cached snapshot; JSON-safe, so it travels through Redis as
 * is): the link's identity and state, and every field declared `edge` (@dl/link-fields).
 */
export type RedirectLinkSnapshot = {
  id: string;
  organizationId: string;
  shortCode: string;
  isActive: boolean;
  /** Screening of its destinations (decisions §22): the edge answers from it, never asks. */
  safetyStatus: 'ok' | 'suspicious' | 'blocked';
  safetyReason: string | null;
} & { [K in EdgeFieldKey]: EdgeValue<K> };

/** A redirect rule's conditions as stored (validated at the API). */
export type RuleConditions = RedirectRuleConditions;

/** The columns of `links` the snapshot is made of (RedirectStore selects exactly these). */
export const SNAPSHOT_COLUMNS = ['id', 'organization_id', 'short_code', 'is_active', 'safety_status', 'safety_reason', ...LINK_EDGE_FIELDS.map((key) => linkField(key).column)];

/** The disabled page's reason for every link of a suspended organization (`org_suspended` beside the columns). */
export const SUSPENDED_REASON = 'organization suspended';

/** A row of SNAPSHOT_COLUMNS as `pg` returns it. */
export type SnapshotRow = Record<string, unknown>;

/** How the edge reads each json field it caches (it trusts nothing of the stored shape). */
const JSON_READERS: { [K in EdgeFieldKey & LinkFieldKeyOf<'json'>]: (v: unknown) => RedirectLinkSnapshot[K] } = {
  utmParameters: (v) => utmParameters(v),
  targetingRules: (v) => targetingOf(v),
  variants: (v) => listOf(v) as RedirectLinkSnapshot['variants'],
  redirectRules: (v) => listOf(v) as RedirectLinkSnapshot['redirectRules'],
};

/** How the edge reads a column of each kind. */
const KIND_READERS: Record<Exclude<LinkFieldKind, 'json'>, (v: unknown) => unknown> = {
  text: (v) => (typeof v === 'string' ? v : null),
  url: (v) => (typeof v === 'string' ? v : null),
  secret: (v) => (typeof v === 'string' ? v : null),
  int: (v) => (typeof v === 'number' ? v : null),
  boolean: (v) => v === true,
  date: (v) => (v ? new Date(v as string | Date).getTime() : null),
  tags: (v) => (Array.isArray(v) ? v : []),
};

/** Each edge field's reader, in LINK_EDGE_FIELDS order. */
const EDGE_READERS = LINK_EDGE_FIELDS.map((key): ((v: unknown) => unknown) => {
  const field = linkField(key);
  return field.kind === 'json' ? JSON_READERS[key as keyof typeof JSON_READERS] : KIND_READERS[field.kind];
});

/**
 * The mapper's body, written once from the declaration as one object literal, so every
 * snapshot has one shape with its properties inside the object: what a visit reads fastest
 * (an object filled key by key ends in V8's dictionary mode). Keys and columns come from the
 * declaration, never from input.
 */
const buildSnapshot = new Function(
  'row',
  'readers',
  `return {
    id: row.id,
    organizationId: row.organization_id,
    shortCode: row.short_code,
    isActive: row.is_active === true,
    safetyStatus: row.org_suspended === true ? 'blocked' : row.safety_status === 'blocked' || row.safety_status === 'suspicious' ? row.safety_status : 'ok',
    safetyReason: row.org_suspended === true ? ${JSON.stringify(SUSPENDED_REASON)} : typeof row.safety_reason === 'string' ? row.safety_reason : null,
    ${LINK_EDGE_FIELDS.map((key, i) => `${key}: readers[${i}](row[${JSON.stringify(linkField(key).column)}])`).join(',\n    ')}
  };`,
) as (row: SnapshotRow, readers: typeof EDGE_READERS) => RedirectLinkSnapshot;

/** The one mapper of a link row to the edge's snapshot. */
export function toRedirectSnapshot(row: SnapshotRow): RedirectLinkSnapshot {
  return buildSnapshot(row, EDGE_READERS);
}

function listOf(v: unknown): unknown[] | null {
  const list = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  return Array.isArray(list) && list.length ? list : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringList(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const list = v.filter((x): x is string => typeof x === 'string' && x.length > 0);
  return list.length ? list : undefined;
}

function targetingOf(v: unknown): RedirectLinkSnapshot['targetingRules'] {
  if (!isObject(v)) return null;
  const countries = stringList(v.countries)?.map((c) => c.toUpperCase());
  const languages = stringList(v.languages)?.map((l) => l.toLowerCase());
  const devices = [...(stringList(v.devices) ?? []), ...(stringList(v.platforms) ?? [])].map((d) => d.toLowerCase());
  const out: NonNullable<RedirectLinkSnapshot['targetingRules']> = {};
  if (countries) out.countries = countries;
  if (languages) out.languages = languages;
  if (devices.length) out.devices = [...new Set(devices)];
  return Object.keys(out).length ? out : null;
}
