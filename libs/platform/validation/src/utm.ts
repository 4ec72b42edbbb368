/** A link's UTM parameters by their short names (`utmParameters.source`); `utm_<key>` in a URL's query. */
export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];

/** The UTM parameters' names in a query string (`utm_source`, ...). */
export const UTM_QUERY_KEYS: ReadonlyArray<`utm_${UtmKey}`> = UTM_KEYS.map((key) => `utm_${key}` as const);

/**
 * The UTM parameters of a submitted or stored object, read under their short (`source`) or query
 * (`utm_source`) names: non-empty strings only, null when there are none.
 */
export function utmParameters(value: unknown): Partial<Record<UtmKey, string>> | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  const out: Partial<Record<UtmKey, string>> = {};
  for (const key of UTM_KEYS) {
    const found = v[key] ?? v[`utm_${key}`];
    if (typeof found === 'string' && found.length) out[key] = found;
  }
  return Object.keys(out).length ? out : null;
}
