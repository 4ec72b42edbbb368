import { UtmKey, utmParameters } from '@dl/platform/validation';

/** What the edge keeps of a link (the cached snapshot; JSON-safe, so it travels through Redis as is). */
export interface RedirectLinkSnapshot {
  id: string;
  organizationId: string;
  shortCode: string;
  originalUrl: string;
  iosUrl: string | null;
  androidUrl: string | null;
  webFallbackUrl: string | null;
  /** Stored bare keys {source, medium, campaign, term, content}. */
  utmParameters: Partial<Record<UtmKey, string>> | null;
  /** Stored {countries, devices, languages}. */
  targetingRules: { countries?: string[]; devices?: string[]; languages?: string[] } | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImageUrl: string | null;
  isActive: boolean;
  /** Epoch milliseconds, or null for a link that never expires. */
  expiresAt: number | null;
  /** Shown on the cloak page (after ogTitle). */
  title: string | null;
  /** scrypt hash of the visitor password (decisions §16), or null. */
  passwordHash: string | null;
  expiredUrl: string | null;
  maxClicks: number | null;
  variants: Array<{ url: string; weight: number }> | null;
  redirectRules: Array<{ conditions: RuleConditions; url: string }> | null;
  cloak: boolean;
  publicStats: boolean;
}

/** A redirect rule's conditions as stored (validated at the API). */
export interface RuleConditions {
  countries?: string[];
  languages?: string[];
  devices?: string[];
  os?: string[];
  browsers?: string[];
  query?: Record<string, string>;
  after?: string;
  before?: string;
}

/** The columns of `links` the snapshot is made of (RedirectStore selects exactly these). */
export const SNAPSHOT_COLUMNS = [
  'id', 'organization_id', 'short_code', 'original_url', 'ios_url', 'android_url', 'web_fallback_url',
  'utm_parameters', 'targeting_rules', 'og_title', 'og_description', 'og_image_url', 'is_active', 'expires_at',
  'title', 'password_hash', 'expired_url', 'max_clicks', 'variants', 'redirect_rules', 'cloak', 'public_stats',
] as const;

/** A row of SNAPSHOT_COLUMNS as `pg` returns it. */
export type SnapshotRow = Record<(typeof SNAPSHOT_COLUMNS)[number], unknown>;

/** The one mapper of a link row to the edge's snapshot. */
export function toRedirectSnapshot(row: SnapshotRow): RedirectLinkSnapshot {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const expiresAt = row.expires_at ? new Date(row.expires_at as string | Date).getTime() : null;
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    shortCode: row.short_code as string,
    originalUrl: row.original_url as string,
    iosUrl: text(row.ios_url),
    androidUrl: text(row.android_url),
    webFallbackUrl: text(row.web_fallback_url),
    utmParameters: utmParameters(row.utm_parameters),
    targetingRules: targetingOf(row.targeting_rules),
    ogTitle: text(row.og_title),
    ogDescription: text(row.og_description),
    ogImageUrl: text(row.og_image_url),
    isActive: row.is_active === true,
    expiresAt,
    title: text(row.title),
    passwordHash: text(row.password_hash),
    expiredUrl: text(row.expired_url),
    maxClicks: typeof row.max_clicks === 'number' ? row.max_clicks : null,
    variants: listOf(row.variants) as RedirectLinkSnapshot['variants'],
    redirectRules: listOf(row.redirect_rules) as RedirectLinkSnapshot['redirectRules'],
    cloak: row.cloak === true,
    publicStats: row.public_stats === true,
  };
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
