import { STATUS_CODES } from 'node:http';
import { CODES_SHOWN_AS_ERROR, ERROR_STATUS, ErrorCode } from './error-codes';
import { renderError } from './error-body';
import { DomainError, NoUpdatesError, ServiceUnavailableError, TooManyRequestsError, ValidationError } from './errors';

class ThingNotFoundError extends DomainError {
  constructor() {
    super('LINK_NOT_FOUND', 'Link not found');
  }
}
class PeriodError extends DomainError {
  constructor() {
    super('INVALID_PERIOD', 'Period must be a month in the format YYYY-MM');
  }
}

describe('the domain error registry (ERROR_STATUS)', () => {
  it('maps every code to a client or availability status with a reason phrase', () => {
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect({ code, reason: STATUS_CODES[status] }).toEqual({ code, reason: expect.any(String) });
      expect([400, 401, 403, 404, 409, 413, 415, 429, 503]).toContain(status);
      expect(code).toMatch(/^[A-Z][A-Z_]+[A-Z]$/);
    }
  });

  it('shows a code in `error` only for codes it maps', () => {
    for (const code of CODES_SHOWN_AS_ERROR) expect(ERROR_STATUS).toHaveProperty(code);
  });
});

describe(renderError.name, () => {
  it('renders a domain error with its registered status, the reason phrase and the message unchanged', () => {
    expect(renderError(new ThingNotFoundError())).toEqual({
      body: { error: 'Not Found', message: 'Link not found', statusCode: 404 },
      headers: {},
      unexpected: false,
    });
    expect(renderError(new NoUpdatesError()).body).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
  });

  it('puts the code in `error` where the contract shows it (monthly reports)', () => {
    expect(renderError(new PeriodError()).body).toEqual({
      error: 'INVALID_PERIOD',
      message: 'Period must be a month in the format YYYY-MM',
      statusCode: 400,
    });
  });

  it('carries the validation map, retryAfter and the headers', () => {
    expect(renderError(new ValidationError({ url: 'Must be a valid URL' })).body).toEqual({
      error: 'Bad Request',
      message: 'Validation error',
      statusCode: 400,
      validation: { url: 'Must be a valid URL' },
    });
    expect(renderError(new TooManyRequestsError(7, { 'X-RateLimit-Limit': '60' }))).toEqual({
      body: { error: 'Too Many Requests', message: 'Too many requests, please retry later', statusCode: 429, retryAfter: 7 },
      headers: { 'Retry-After': '7', 'X-RateLimit-Limit': '60' },
      unexpected: false,
    });
    expect(renderError(new ServiceUnavailableError(3))).toMatchObject({
      body: { error: 'Service Unavailable', statusCode: 503, retryAfter: 3 },
      headers: { 'Retry-After': '3' },
      unexpected: false,
    });
  });

  it('answers a code outside the registry (reachable only through a cast) as a plain 500, flagged for the log', () => {
    class Unmapped extends DomainError {
      constructor() {
        super('NOT_A_CODE' as ErrorCode, 'secret detail');
      }
    }
    expect(renderError(new Unmapped())).toEqual({
      body: { error: 'Internal Server Error', message: 'Internal Server Error', statusCode: 500 },
      headers: {},
      unexpected: true,
    });
  });

  it('is not an HTTP error: a domain error has a code and no status of its own', () => {
    const err = new ThingNotFoundError();
    expect(err).toMatchObject({ code: 'LINK_NOT_FOUND', name: 'ThingNotFoundError' });
    expect(err).not.toHaveProperty('statusCode');
    expect(err).not.toHaveProperty('status');
  });
});
