/**
 * What a link field is. The kind decides the rest: the column's SQL type, the input rule, the
 * OpenAPI schema, how a CSV cell is read and how the edge reads the column.
 * - text: a string of at most `maxLength` characters
 * - url: an absolute http(s) URL (stored in its WHATWG form)
 * - int: an integer within `range` (`message` when outside)
 * - boolean: true or false (null in a request: back to `fallback`)
 * - date: an ISO 8601 instant in the future (stored as timestamptz)
 * - tags: up to 10 labels of 1-40 characters (trimmed, case-insensitively unique)
 * - json: a structured value of type `shape`, whose rules libs/links declares beside its DTOs
 * - secret: kept by the service, never accepted as is nor shown (the password's hash)
 */
export type LinkFieldKind = 'text' | 'url' | 'int' | 'boolean' | 'date' | 'tags' | 'json' | 'secret';

/** One link field. */
export interface LinkFieldSpec {
  readonly kind: LinkFieldKind;
  /** Its column in `links`. */
  readonly column: string;
  /** A new link's value when neither the request nor its template gives one; without it, null (the field is nullable). */
  readonly fallback?: string | number | boolean | readonly string[];
  /** text: the longest value accepted. */
  readonly maxLength?: number;
  /** int: the accepted range, both ends included, and the message for a value outside it. */
  readonly range?: readonly [number, number];
  readonly message?: string;
  /** json: the stored value's type (type only: see `shape`). */
  readonly shape?: unknown;
  /** Part of the redirect's cached snapshot: the edge decides with it. */
  readonly edge?: boolean;
  /** The CSV import's header names that fill it (compared in lower case, letters and digits only). */
  readonly csv?: readonly string[];
  /** OpenAPI: what it does and an example value. */
  readonly description?: string;
  readonly example?: unknown;
}

/** A json field's stored type, for the declaration: `shape: shape<LinkVariant[]>()` (no value at run time). */
export const shape = <T>(): T => undefined as T;

/** A kind's value (json fields take their `shape`). */
interface KindValues {
  text: string;
  url: string;
  int: number;
  boolean: boolean;
  date: Date;
  tags: string[];
  secret: string;
}

type BaseValue<F> = F extends { kind: 'json'; shape: infer S }
  ? S
  : F extends { kind: infer K extends keyof KindValues }
    ? KindValues[K]
    : never;

/** A field's normalized value: its kind's type, or null when it has no fallback. */
export type LinkFieldValue<F> = F extends { fallback: string | number | boolean | readonly string[] } ? BaseValue<F> : BaseValue<F> | null;
