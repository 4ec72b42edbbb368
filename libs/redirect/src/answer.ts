import { safeHeaderUrl } from '@dl/platform/http';
import { Outcome } from './decision';
import { cloakPage, EXPIRED_PAGE, NOT_FOUND_PAGE, passwordPage, previewPage, TOO_MANY_TRIES_PAGE, UNAVAILABLE_PAGE } from './pages';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** Omitted on HEAD by the HTTP layer. */
  body: string;
}

const HTML = 'text/html; charset=utf-8';
const NO_STORE = 'no-store';

/**
 * The one place an outcome becomes an HTTP answer (status, headers, body). Every header
 * value it returns is one Node writes: a destination stored before URLs were normalised
 * (or a visitor's query composed into it) is made ASCII here (decisions §14).
 */
export function buildAnswer(outcome: Outcome): Answer {
  switch (outcome.kind) {
    case 'redirect':
    case 'expired-redirect':
      return { status: 302, headers: { location: safeHeaderUrl(outcome.location), 'cache-control': NO_STORE }, body: '' };
    case 'password':
      return {
        status: outcome.wrong ? 401 : 200,
        headers: { 'content-type': HTML, 'cache-control': NO_STORE },
        body: passwordPage(outcome.wrong === true),
      };
    case 'too-many-tries':
      return { status: 429, headers: { 'content-type': HTML, 'cache-control': NO_STORE, 'retry-after': '60' }, body: TOO_MANY_TRIES_PAGE };
    case 'cloak':
      return {
        status: 200,
        headers: { 'content-type': HTML, 'cache-control': NO_STORE },
        body: cloakPage(outcome.link, outcome.location),
      };
    case 'preview':
      return {
        status: 200,
        headers: { 'content-type': HTML, 'cache-control': NO_STORE },
        body: previewPage(outcome.link, safeHeaderUrl(outcome.location)),
      };
    case 'expired':
      return { status: 410, headers: { 'content-type': HTML, 'cache-control': NO_STORE }, body: EXPIRED_PAGE };
    case 'unavailable':
      return {
        status: 503,
        headers: { 'content-type': HTML, 'cache-control': NO_STORE, 'retry-after': '5' },
        body: UNAVAILABLE_PAGE,
      };
    case 'not-found':
      return { status: 404, headers: { 'content-type': HTML, 'cache-control': NO_STORE }, body: NOT_FOUND_PAGE };
  }
}
