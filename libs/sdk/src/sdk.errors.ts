import { domainError } from '@dl/platform/http';

export class AppNotFoundError extends domainError('APP_NOT_FOUND', 'App not found') {}

export class PixelSiteNotFoundError extends domainError('PIXEL_SITE_NOT_FOUND', 'Pixel site not found') {}

/** SDK calls without an `Authorization: Bearer dla_…` header. */
export class MissingAppTokenError extends domainError('MISSING_APP_TOKEN', 'Missing or invalid app token') {}

/** SDK calls with a well-formed token that is unknown or revoked. */
export class InvalidAppTokenError extends domainError('INVALID_APP_TOKEN', 'Invalid app token') {}

/** Pixel calls with an unknown or deleted site key. */
export class InvalidSiteKeyError extends domainError('INVALID_SITE_KEY', 'Invalid site key') {}

/** The queue cannot take the data (Redis down): the client retries after Retry-After. */
export class IngestUnavailableError extends domainError('INGEST_UNAVAILABLE', 'Ingestion temporarily unavailable, please retry', {
  headers: { 'Retry-After': '5' },
}) {}

/** Decisions §14: a browser's pixel call from a page outside the site's domain. */
export class OriginNotAllowedError extends domainError('ORIGIN_NOT_ALLOWED', 'Origin not allowed for this site') {}
