import { STATUS_CODES } from 'node:http';

export type ValidationMap = Record<string, string>;

export interface AppErrorOptions {
  /** The `error` field; defaults to the status text (e.g. "Bad Request"). Reports use upper-case codes. */
  error?: string;
  validation?: ValidationMap;
  retryAfter?: number;
  headers?: Record<string, string>;
}

/**
 * A typed error that maps one-to-one to the contract's error body
 * `{error, message, statusCode, validation?, retryAfter?}`. Domain libraries
 * throw subclasses; the global filter renders them.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  get error(): string {
    return this.options.error ?? STATUS_CODES[this.statusCode] ?? 'Error';
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, options: AppErrorOptions = {}) {
    super(400, message, options);
  }
}

/** 400 with a `validation` map naming each bad field. */
export class ValidationError extends AppError {
  constructor(validation: ValidationMap, message = 'Validation error') {
    super(400, message, { validation });
  }
}

export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super(401, message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Your role does not allow this action', options: AppErrorOptions = {}) {
    super(403, message, options);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not Found', options: AppErrorOptions = {}) {
    super(404, message, options);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = 'Payload too large') {
    super(413, message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(retryAfter: number, headers: Record<string, string> = {}) {
    super(429, 'Too many requests, please retry later', {
      retryAfter,
      headers: { 'Retry-After': String(retryAfter), ...headers },
    });
  }
}

/**
 * 503 when a dependency the answer needs (Postgres, Redis) is down: the client retries after
 * `Retry-After` seconds. Infrastructure errors that reach the error filter become this (never a 500).
 */
export class ServiceUnavailableError extends AppError {
  constructor(retryAfter = 5, message = 'Service temporarily unavailable, please retry') {
    super(503, message, { retryAfter, headers: { 'Retry-After': String(retryAfter) } });
  }
}
