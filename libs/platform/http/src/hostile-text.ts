import { validateHeaderValue } from 'node:http';
import { stripUnstorable } from '@dl/platform/db';

export {
  findUnstorableText,
  hasUnstorableText,
  stripUnstorable,
  stripUnstorableOrNull,
  toStorableJson,
  UNSTORABLE_TEXT_MESSAGE,
} from '@dl/platform/db';

/**
 * The WHATWG form of a URL (`new URL(v).href`): non-ASCII percent-encoded, IDN hosts in
 * punycode, so it is always a valid header value. A value that does not parse is
 * returned as given (validation refuses it separately).
 */
export function normalizeUrl(value: string): string {
  try {
    return new URL(value).href;
  } catch {
    return value;
  }
}

/** normalizeUrl for optional fields (null/undefined kept). */
export function normalizeUrlOrNull<T extends string | null | undefined>(value: T): T {
  return (typeof value === 'string' ? normalizeUrl(value) : value) as T;
}

export function isValidHeaderValue(value: string): boolean {
  try {
    validateHeaderValue('x', value);
    return true;
  } catch {
    return false;
  }
}

/**
 * A `Location` that Node will write: the WHATWG href when the value parses, else the
 * value with every byte outside visible ASCII percent-encoded (UTF-8; lone surrogates
 * dropped). Rows stored before normalisation, or composed from a visitor's query, can
 * never make an invalid header.
 */
export function safeHeaderUrl(value: string): string {
  if (isVisibleAscii(value)) return value;
  const parsed = normalizeUrl(value);
  if (isVisibleAscii(parsed)) return parsed;
  return stripUnstorable(value).replace(/[^\x21-\x7e]+/g, (run) => Buffer.from(run, 'utf8').toString('hex').toUpperCase().replace(/../g, '%$&'));
}

function isVisibleAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}
