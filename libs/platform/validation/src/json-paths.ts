/** How deep findInJson looks into a parsed JSON value (deeper parts are not looked at). */
export const MAX_JSON_DEPTH = 64;

/** What findInJson looks for: each answers the path to report, or null to go on. */
export interface JsonFinder {
  /** A string value at `path` ('' for the value itself). */
  text?(value: string, path: string): string | null;
  /** A key of the object at `parent` ('' for the value itself). */
  key(key: string, parent: string): string | null;
}

/**
 * The path (`a.b[0]`, as validation maps name fields) of the first place in a parsed JSON value
 * that `finder` reports, depth first: each key before what it holds. Null when there is none.
 */
export function findInJson(value: unknown, finder: JsonFinder, path = '', depth = 0): string | null {
  if (typeof value === 'string') return finder.text?.(value, path) ?? null;
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findInJson(value[i], finder, `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const found = finder.key(key, path) || findInJson((value as Record<string, unknown>)[key], finder, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}
