import { safeHeaderUrl } from '@dl/platform/http';
import { Outcome } from './decision';
import { RedirectLinkSnapshot } from './redirect-link';
import { BAD_LINK_PAGE, cloakPage, disabledPage, EXPIRED_PAGE, linkPreviewPage, warningPage, NOT_FOUND_PAGE, passwordPage, previewPage, REPORTED_PAGE, reportPage, TOO_MANY_REPORTS_PAGE, TOO_MANY_TRIES_PAGE, UNAVAILABLE_PAGE } from './pages';
import { publicStatsPage } from './public-stats';
import { PublicStatsDto } from './public-stats.dto';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Omitted on HEAD by the HTTP layer. */
  body: string;
}

/** Everything the edge answers: a decision's outcome, or one of its other pages. */
export type EdgePage =
  | Outcome
  | { kind: 'stats'; stats: PublicStatsDto; shortUrl: string }
  | { kind: 'association-file'; json: string }
  | { kind: 'bad-link' }
  | { kind: 'report'; shortCode: string; error: string | null }
  | { kind: 'link-preview'; link: RedirectLinkSnapshot; shortUrl: string }
  | { kind: 'reported' }
  | { kind: 'too-many-reports'; retryAfter: number };

type Builders = { [K in EdgePage['kind']]: (page: Extract<EdgePage, { kind: K }>) => Answer };

const HTML = 'text/html; charset=utf-8';
const NO_STORE = 'no-store';
/**
 * Every HTML page of the edge (decisions §22): no script at all (inline styles only), forms post
 * to the page's own origin, never framed, no MIME sniffing, the short URL's path kept from other sites.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
/** The cloak page also frames its destination (any http(s) origin) and grants that frame nothing. */
export const CLOAK_CSP = `${PAGE_CSP}; frame-src http: https:`;
export const CLOAK_PERMISSIONS = 'camera=(), microphone=(), geolocation=(), clipboard-read=(), clipboard-write=(), payment=(), usb=(), display-capture=()';
const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'strict-origin-when-cross-origin' };

const html = (status: number, body: string, extra: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': HTML, 'cache-control': NO_STORE, 'content-security-policy': PAGE_CSP, ...SECURITY_HEADERS, ...extra },
  body,
});
const redirect = (location: string): Answer => ({ status: 302, headers: { location: safeHeaderUrl(location), 'cache-control': NO_STORE }, body: '' });

/**
 * How each page is answered (status, headers, body). A new page (a warning or a report page) is
 * an outcome kind or an `EdgePage` member plus its entry here: a kind without one does not compile.
 * Every `Location` is one Node writes: a destination stored before URLs were normalised (or a
 * visitor's query composed into it) is made ASCII here (decisions §14).
 */
const BUILDERS: Builders = {
  redirect: (o) => redirect(o.location),
  'expired-redirect': (o) => redirect(o.location),
  'not-found-redirect': (o) => redirect(o.location),
  password: (o) => html(o.wrong ? 401 : 200, passwordPage(o.wrong === true)),
  'too-many-tries': () => html(429, TOO_MANY_TRIES_PAGE, { 'retry-after': '60' }),
  disabled: (o) => html(403, disabledPage(o.reason)),
  warning: (o) => html(200, warningPage(o.link.shortCode, o.destination, o.query, o.link.safetyReason)),
  cloak: (o) => html(200, cloakPage(o.link, o.location), { 'content-security-policy': CLOAK_CSP, 'permissions-policy': CLOAK_PERMISSIONS }),
  preview: (o) => html(200, previewPage(o.link, safeHeaderUrl(o.location))),
  expired: () => html(410, EXPIRED_PAGE),
  unavailable: () => html(503, UNAVAILABLE_PAGE, { 'retry-after': '5' }),
  'not-found': () => html(404, NOT_FOUND_PAGE),
  'bad-link': () => html(400, BAD_LINK_PAGE),
  report: (p) => html(p.error ? 400 : 200, reportPage(p.shortCode, p.error)),
  'link-preview': (p) => html(200, linkPreviewPage(p.link, p.shortUrl), { 'x-robots-tag': 'noindex' }),
  reported: () => html(201, REPORTED_PAGE),
  'too-many-reports': (p) => html(429, TOO_MANY_REPORTS_PAGE, { 'retry-after': String(p.retryAfter) }),
  stats: (p) => ({
    status: 200,
    headers: { 'content-type': HTML, 'cache-control': 'public, max-age=60', 'x-robots-tag': 'noindex', 'content-security-policy': PAGE_CSP, ...SECURITY_HEADERS },
    body: publicStatsPage(p.stats, p.shortUrl),
  }),
  'association-file': (p) => ({ status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' }, body: p.json }),
};

/** The one place an answer of the edge is made; `setCookie` goes on it as given (a proven password). */
export function buildAnswer(page: EdgePage, setCookie: string | null = null): Answer {
  const answer = (BUILDERS[page.kind] as (p: EdgePage) => Answer)(page);
  if (setCookie !== null) answer.headers['set-cookie'] = setCookie;
  return answer;
}
