import { STATUS_CODES } from 'node:http';
import { HttpException } from '@nestjs/common';
import { errorCodes } from 'fastify';
import { infraDependency, OUTAGE_RETRY_AFTER_SECONDS, reportOutage } from '@dl/platform/observability';
import { CODES_SHOWN_AS_ERROR, ERROR_STATUS } from './error-codes';
import { DomainError, ServiceUnavailableError, ValidationMap } from './errors';

export interface ErrorBody {
  error: string;
  message: string;
  statusCode: number;
  validation?: ValidationMap;
  retryAfter?: number;
}

export interface RenderedError {
  body: ErrorBody;
  headers: Record<string, string>;
  /** True for 5xx: the caller logs the original error with the request id. */
  unexpected: boolean;
}

const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Invalid JSON body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Invalid JSON body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Payload too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported Media Type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Invalid Content-Length'],
  FST_ERR_BAD_URL: [400, 'Invalid URL'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'Path parameter too long'],
};

/** Nest re-wraps Fastify's errors as HttpException(message) and drops the code: match by message. */
const FASTIFY_BY_MESSAGE = new Map<string, [number, string]>(
  Object.entries(FASTIFY_MESSAGES).flatMap(([code, mapped]) => {
    const make = (errorCodes as unknown as Record<string, (() => Error) | undefined>)[code];
    return make ? [[make().message, mapped] as [string, [number, string]]] : [];
  }),
);

function body(statusCode: number, message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  return { error: STATUS_CODES[statusCode] ?? 'Error', message, statusCode, ...extra };
}

/**
 * The one mapping of a domain error to HTTP: the status from ERROR_STATUS, the contract's
 * message unchanged. A code outside the table (only reachable through a cast) is a bug: 500.
 */
function renderDomainError(err: DomainError): RenderedError {
  const statusCode: number | undefined = ERROR_STATUS[err.code];
  if (statusCode === undefined) return { body: body(500, 'Internal Server Error'), headers: {}, unexpected: true };
  const error = CODES_SHOWN_AS_ERROR.has(err.code) ? err.code : (STATUS_CODES[statusCode] ?? 'Error');
  const b: ErrorBody = { error, message: err.message, statusCode };
  if (err.options.validation) b.validation = err.options.validation;
  if (err.options.retryAfter !== undefined) b.retryAfter = err.options.retryAfter;
  // A 503 is a known state (a dependency is down), not a bug: no stack logged per request.
  return { body: b, headers: err.options.headers ?? {}, unexpected: false };
}

/** Turns anything thrown into the contract's error body. Never exposes stacks or SQL. */
export function renderError(err: unknown): RenderedError {
  if (!(err instanceof DomainError) && !(err instanceof HttpException)) {
    // Postgres or Redis down: 503 with Retry-After (one warning per dependency per 30 s, no stack per request).
    const dependency = infraDependency(err, 'postgres');
    if (dependency) {
      reportOutage(dependency, err, 'request');
      const unavailable = renderError(new ServiceUnavailableError(OUTAGE_RETRY_AFTER_SECONDS));
      return { ...unavailable, unexpected: false };
    }
  }
  if (err instanceof DomainError) return renderDomainError(err);
  const e = err as { code?: string; statusCode?: number; status?: number; message?: string };
  if (e && typeof e.code === 'string' && FASTIFY_MESSAGES[e.code]) {
    const [status, message] = FASTIFY_MESSAGES[e.code];
    return { body: body(status, message), headers: {}, unexpected: false };
  }
  if (err instanceof SyntaxError && (e.statusCode === 400 || e.status === 400)) {
    return { body: body(400, 'Invalid JSON body'), headers: {}, unexpected: false };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const fastify = FASTIFY_BY_MESSAGE.get(err.message);
    if (fastify) return { body: body(fastify[0], fastify[1]), headers: {}, unexpected: false };
    if (status === 404) return { body: body(404, 'Not Found'), headers: {}, unexpected: false };
    const response = err.getResponse();
    let message = STATUS_CODES[status] ?? 'Error';
    if (typeof response === 'string') message = response;
    else if (response && typeof response === 'object' && 'message' in response) {
      const m = (response as { message: unknown }).message;
      message = Array.isArray(m) ? m.join('; ') : String(m);
    }
    if (status >= 500) return { body: body(500, 'Internal Server Error'), headers: {}, unexpected: true };
    return { body: body(status, message), headers: {}, unexpected: false };
  }
  const status = e?.statusCode ?? e?.status;
  if (typeof status === 'number' && status >= 400 && status < 500 && typeof e.message === 'string') {
    // Errors raised by Fastify and its plugins with a client status (e.g. multipart limits).
    return { body: body(status, e.message), headers: {}, unexpected: false };
  }
  return { body: body(500, 'Internal Server Error'), headers: {}, unexpected: true };
}
