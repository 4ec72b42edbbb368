/**
 * Text Postgres cannot store (decisions §14): NUL, which no `text`/`jsonb` value may hold,
 * and lone UTF-16 surrogates, which have no UTF-8 form (the driver would send U+FFFD or fail).
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const UNSTORABLE_TEXT_MESSAGE = 'Must not contain NUL characters or unpaired surrogates';

export function hasUnstorableText(value: string): boolean {
  return UNSTORABLE.test(value);
}

/** Removes NUL and lone surrogates (what visitors send is cleaned, never refused). */
export function stripUnstorable(value: string): string {
  return UNSTORABLE.test(value) ? value.replace(UNSTORABLE_ALL, '') : value;
}

/** Like stripUnstorable, keeping null/undefined as they are. */
export function stripUnstorableOrNull<T extends string | null | undefined>(value: T): T {
  return (typeof value === 'string' ? stripUnstorable(value) : value) as T;
}

const MAX_DEPTH = 64;

/**
 * The path (`a.b[0]`, as validation maps name fields) of the first key or string value
 * in a parsed JSON value that holds unstorable text, or null. Keys count: a property
 * name is stored too (jsonb).
 */
export function findUnstorableText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return hasUnstorableText(value) ? path || 'body' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const child = path ? `${path}.${key}` : key;
    if (hasUnstorableText(key)) return path ? `${path}.${stripUnstorable(key)}` : stripUnstorable(key) || 'body';
    const found = findUnstorableText((value as Record<string, unknown>)[key], child, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * A copy of any value that `jsonb` can store: strings (and keys) stripped, non-finite
 * numbers and bigints as strings, functions/symbols dropped, cycles and depth cut.
 * Used for dead letters, whose payload is by definition something that failed to store.
 */
export function toStorableJson(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return stripUnstorable(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth > MAX_DEPTH || seen.has(value)) return '[cut]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => toStorableJson(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty: an assignment to a key named `__proto__` (JSON.parse makes it an own key) would set the copy's prototype.
    Object.defineProperty(out, stripUnstorable(k), { value: toStorableJson(v, depth + 1, seen), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
