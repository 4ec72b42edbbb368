import type { ErrorCode } from './error-codes';

export type ValidationMap = Record<string, string>;

export interface DomainErrorOptions {
  /** Per-field messages (`validation` in the body). */
  validation?: ValidationMap;
  /** Seconds the caller should wait (`retryAfter` in the body). */
  retryAfter?: number;
  /** Headers the answer carries (Retry-After, X-RateLimit-*). */
  headers?: Record<string, string>;
}

/**
 * A failure of a domain rule: a stable `code` (a key of ERROR_STATUS) and the contract's exact
 * message. It knows nothing of HTTP: the global filter (`renderError`) maps the code to a status
 * and renders the contract's body `{error, message, statusCode, validation?, retryAfter?}`.
 * Libraries declare one subclass per failure in their `*.errors.ts`.
 */
export abstract class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The base of an error with one fixed message (most of them):
 *   export class WebhookNotFoundError extends domainError('WEBHOOK_NOT_FOUND', 'Webhook not found') {}
 */
export function domainError(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
  return class extends DomainError {
    /** `override`: another wording of the same refusal (a default message the caller may replace). */
    constructor(override?: string) {
      super(code, override ?? message, options);
    }
  };
}

/**
 * The base of an error whose message is made of its arguments:
 *   export class TemplateInUseError extends domainErrorOf('TEMPLATE_IN_USE', (count: number) => `Template is in use by ${count} links`) {}
 */
export function domainErrorOf<A extends unknown[]>(code: ErrorCode, message: (...args: A) => string, options: DomainErrorOptions = {}) {
  return class extends DomainError {
    constructor(...args: A) {
      super(code, message(...args), options);
    }
  };
}

/** A request the rules refuse as a whole (the message says why). */
export class BadRequestError extends DomainError {
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}

/** Bad fields: `validation` names each one (message `Validation error` unless the contract says otherwise). */
export class ValidationError extends DomainError {
  constructor(validation: ValidationMap, message = 'Validation error', code: ErrorCode = 'VALIDATION_FAILED') {
    super(code, message, { validation });
  }
}

/** An update that names no field to change. */
export class NoUpdatesError extends domainError('NO_UPDATES', 'No updates provided') {}

export class PayloadTooLargeError extends DomainError {
  constructor(message = 'Payload too large') {
    super('PAYLOAD_TOO_LARGE', message);
  }
}

/** A body of a type the route does not read (e.g. not JSON). */
export class UnsupportedMediaTypeError extends DomainError {
  constructor() {
    super('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type');
  }
}

export class TooManyRequestsError extends DomainError {
  constructor(retryAfter: number, headers: Record<string, string> = {}) {
    super('RATE_LIMITED', 'Too many requests, please retry later', {
      retryAfter,
      headers: { 'Retry-After': String(retryAfter), ...headers },
    });
  }
}

/**
 * A dependency the answer needs (Postgres, Redis) is down: the client retries after
 * `Retry-After` seconds. Infrastructure errors that reach the error filter become this (never a 500).
 */
export class ServiceUnavailableError extends DomainError {
  constructor(retryAfter = 5, message = 'Service temporarily unavailable, please retry') {
    super('SERVICE_UNAVAILABLE', message, { retryAfter, headers: { 'Retry-After': String(retryAfter) } });
  }
}
