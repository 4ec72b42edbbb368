import { ValidationError } from '@dl/platform/http';
import { isUuid, parseIsoDate } from '@dl/platform/validation';

/** GET /api/links filters (decisions §16), all optional and combinable. */
export interface LinkListFilter {
  projectId?: string;
  /** Case-insensitive substring of title, short code or destination. */
  search?: string;
  /** Any of these tags (case-insensitive). */
  tags?: string[];
  /** A link's `domain_name`: '' = the service's own host. */
  domainName?: string;
  isActive?: boolean;
  /** 1-1000; without it every match. */
  limit?: number;
  cursor?: LinkListCursor;
}

/** The filters as the query string gives them: `domain` a host name, `cursor` opaque. */
export type LinkListQuery = Omit<LinkListFilter, 'domainName' | 'cursor'> & { domain?: string; cursor?: string };

/** Where the previous page stopped: the last item's creation time and id (keyset). */
export interface LinkListCursor {
  createdAt: string;
  id: string;
}

export interface LinkListPage {
  /** JSON array text of list items. */
  json: string;
  /** Set when more links match after this page. */
  nextCursor: string | null;
}

export const CURSOR_MESSAGE = 'Must be a cursor from a previous X-Next-Cursor header';

/** Opaque to clients: base64url of `<created_at ISO, µs>|<id>`. */
export function encodeListCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`, 'utf8').toString('base64url');
}

/** 400 `validation.cursor` for anything that is not a cursor this service handed out. */
export function decodeListCursor(cursor: string): LinkListCursor {
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const [createdAt, id, extra] = text.split('|');
  if (extra !== undefined || !id || !isUuid(id) || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(createdAt ?? '') || !parseIsoDate(createdAt)) {
    throw new ValidationError({ cursor: CURSOR_MESSAGE });
  }
  return { createdAt, id };
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
export function likeSubstring(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
