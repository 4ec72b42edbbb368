import { ScimError } from './scim-errors';

/** The one filter this service answers (decisions §25): `userName eq "<value>"`. */
export interface UserNameFilter {
  userName: string;
}

/**
 * Parses `filter` (RFC 7644 §3.4.2.2). Attribute names are case-insensitive; the value is a JSON
 * string. Anything else, a well-formed filter on another attribute or operator included, answers
 * 400 `invalidFilter`.
 */
export function parseUserFilter(filter: string | undefined): UserNameFilter | undefined {
  if (filter === undefined) return undefined;
  const m = /^\s*userName\s+eq\s+("(?:[^"\\]|\\.)*")\s*$/i.exec(filter);
  if (!m) throw new ScimError(400, 'Only filters of the form userName eq "value" are supported', 'invalidFilter');
  let value: unknown;
  try {
    value = JSON.parse(m[1]);
  } catch {
    throw new ScimError(400, 'The filter value is not a valid string', 'invalidFilter');
  }
  if (typeof value !== 'string' || value.length > 320) throw new ScimError(400, 'The filter value is not a valid userName', 'invalidFilter');
  return { userName: value };
}
