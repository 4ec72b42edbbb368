import { BadRequestError, ForbiddenError, NotFoundError } from '@dl/platform/http';

/** Monthly report errors carry an upper-case code in `error` (spec "Monthly report errors"). */
export class InvalidPeriodError extends BadRequestError {
  constructor() {
    super('Period must be a month in the format YYYY-MM', { error: 'INVALID_PERIOD' });
  }
}

export class PeriodInFutureError extends BadRequestError {
  constructor() {
    super('This month has not started yet', { error: 'PERIOD_IN_FUTURE' });
  }
}

export class PeriodLiveError extends BadRequestError {
  constructor() {
    super('The current month is built live and cannot be regenerated', { error: 'PERIOD_LIVE' });
  }
}

export class InsufficientRoleError extends ForbiddenError {
  constructor() {
    super('Only the workspace owner can regenerate a report', { error: 'INSUFFICIENT_ROLE' });
  }
}

export class PeriodBeforeWorkspaceError extends NotFoundError {
  constructor() {
    super('This month ended before the workspace was created', { error: 'PERIOD_BEFORE_WORKSPACE' });
  }
}

export class PeriodNotRetainedError extends NotFoundError {
  constructor() {
    super('Reports are kept for 400 days; this month is no longer retained', { error: 'PERIOD_NOT_RETAINED' });
  }
}
