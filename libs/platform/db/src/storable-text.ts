import { findInJson, JsonFinder, MAX_JSON_DEPTH } from '@dl/platform/validation';

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

const UNSTORABLE_FINDER: JsonFinder = {
  text: (value, path) => (hasUnstorableText(value) ? path || 'body' : null),
  key: (key, parent) => (hasUnstorableText(key) ? (parent ? `${parent}.${stripUnstorable(key)}` : stripUnstorable(key) || 'body') : null),
};

/**
 * The path (`a.b[0]`, as validation maps name fields) of the first key or string value
 * in a parsed JSON value that holds unstorable text, or null. Keys count: a property
 * name is stored too (jsonb).
 */
export function findUnstorableText(value: unknown): string | null {
  return findInJson(value, UNSTORABLE_FINDER);
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
  if (depth > MAX_JSON_DEPTH || seen.has(value)) return '[cut]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => toStorableJson(v, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // defineProperty: an assignment to a key named `__proto__` (JSON.parse makes it an own key) would set the copy's prototype.
    Object.defineProperty(out, stripUnstorable(k), { value: toStorableJson(v, depth + 1, seen), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
