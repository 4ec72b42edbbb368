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
}

export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];

/** A `@dl/links` RedirectLink (Date expiry, JSON columns) → the snapshot. */
export function toRedirectSnapshot(row: {
  id: string;
  organizationId: string;
  shortCode: string;
  originalUrl: string;
  iosUrl: string | null;
  androidUrl: string | null;
  webFallbackUrl: string | null;
  utmParameters: unknown;
  targetingRules: unknown;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImageUrl: string | null;
  isActive: boolean;
  expiresAt: Date | null;
}): RedirectLinkSnapshot {
  return {
    id: row.id,
    organizationId: row.organizationId,
    shortCode: row.shortCode,
    originalUrl: row.originalUrl,
    iosUrl: row.iosUrl,
    androidUrl: row.androidUrl,
    webFallbackUrl: row.webFallbackUrl,
    utmParameters: utmOf(row.utmParameters),
    targetingRules: targetingOf(row.targetingRules),
    ogTitle: row.ogTitle,
    ogDescription: row.ogDescription,
    ogImageUrl: row.ogImageUrl,
    isActive: row.isActive,
    expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function utmOf(v: unknown): RedirectLinkSnapshot['utmParameters'] {
  if (!isObject(v)) return null;
  const out: Partial<Record<UtmKey, string>> = {};
  for (const key of UTM_KEYS) {
    const value = v[key] ?? v[`utm_${key}`];
    if (typeof value === 'string' && value.length) out[key] = value;
  }
  return Object.keys(out).length ? out : null;
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
