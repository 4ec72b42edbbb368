import { UtmParameters } from '../link.types';

/** A trimmed cell, or undefined when empty. */
export const set = (v: string | undefined): string | undefined => (v && v.trim() ? v.trim() : undefined);

/** A tag list: a JSON array, or a list separated by `,`, `;` or `|`. */
export function tagsOf(raw: string | undefined): string[] | undefined {
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map((t) => String(t).trim()).filter(Boolean);
    } catch {
      /* fall through to a separated list */
    }
  }
  const tags = trimmed.split(/[,;|]/).map((t) => t.trim()).filter(Boolean);
  return tags.length ? tags : undefined;
}

export function utm(source?: string, medium?: string, campaign?: string, term?: string, content?: string): UtmParameters | undefined {
  const out: UtmParameters = {};
  if (set(source)) out.source = set(source);
  if (set(medium)) out.medium = set(medium);
  if (set(campaign)) out.campaign = set(campaign);
  if (set(term)) out.term = set(term);
  if (set(content)) out.content = set(content);
  return Object.keys(out).length ? out : undefined;
}

export function compact<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The last path segment of a short URL (`https://bit.ly/abc`, `bit.ly/abc`), or undefined. */
export function codeOfShortUrl(raw: string | undefined): string | undefined {
  const value = set(raw);
  if (!value) return undefined;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    return set(decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, '')));
  } catch {
    return undefined;
  }
}

/**
 * A creation date as the exports write it: ISO 8601, `YYYY-MM-DD HH:MM:SS` (read as UTC, as
 * YOURLS and Branch write it), or Unix seconds or milliseconds. Anything else fails the row.
 */
export function dateCell(column: string, raw: string | undefined, now: Date): Date | undefined {
  const value = set(raw);
  if (!value) return undefined;
  let date: Date;
  if (/^\d{9,10}$/.test(value)) date = new Date(Number(value) * 1000);
  else if (/^\d{12,13}$/.test(value)) date = new Date(Number(value));
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) date = new Date(`${value.replace(' ', 'T')}Z`);
  else if (/^\d{4}-\d{2}-\d{2}/.test(value)) date = new Date(value);
  else date = new Date(Number.NaN);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1990) throw new Error(`${column}: Must be a date`);
  if (date.getTime() > now.getTime()) throw new Error(`${column}: Must not be in the future`);
  return date;
}

/** A click count: digits, with `,` or spaces as thousands separators; anything else fails the row. */
export function countCell(column: string, raw: string | undefined): number | undefined {
  const value = set(raw)?.replace(/[,\s]/g, '');
  if (value === undefined) return undefined;
  if (!/^\d{1,12}$/.test(value)) throw new Error(`${column}: Must be a whole number`);
  return Number(value);
}
