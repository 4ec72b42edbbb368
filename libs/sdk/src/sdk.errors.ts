import { AppError, ForbiddenError, NotFoundError, UnauthorizedError } from '@dl/platform/http';

export class AppNotFoundError extends NotFoundError {
  constructor() {
    super('App not found');
  }
}

export class PixelSiteNotFoundError extends NotFoundError {
  constructor() {
    super('Pixel site not found');
  }
}

/** 401 for SDK calls: no `Authorization: Bearer dla_…` header. */
export class MissingAppTokenError extends UnauthorizedError {
  constructor() {
    super('Missing or invalid app token');
  }
}

/** 401 for SDK calls: a well-formed token that is unknown or revoked. */
export class InvalidAppTokenError extends UnauthorizedError {
  constructor() {
    super('Invalid app token');
  }
}

/** 401 for pixel calls: unknown or deleted site key. */
export class InvalidSiteKeyError extends UnauthorizedError {
  constructor() {
    super('Invalid site key');
  }
}

/** 503 when the queue cannot take the data (Redis down): the client retries. */
export class IngestUnavailableError extends AppError {
  constructor() {
    super(503, 'Ingestion temporarily unavailable, please retry', { headers: { 'Retry-After': '5' } });
  }
}

/** Decisions §14: a browser's pixel call from a page outside the site's domain. */
export class OriginNotAllowedError extends ForbiddenError {
  constructor() {
    super('Origin not allowed for this site');
  }
}
