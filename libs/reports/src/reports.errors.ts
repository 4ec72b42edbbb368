import { domainError } from '@dl/platform/http';

/* Monthly report errors: their codes are what the contract shows in `error` (spec "Monthly report errors"). */

export class InvalidPeriodError extends domainError('INVALID_PERIOD', 'Period must be a month in the format YYYY-MM') {}

export class PeriodInFutureError extends domainError('PERIOD_IN_FUTURE', 'This month has not started yet') {}

export class PeriodLiveError extends domainError('PERIOD_LIVE', 'The current month is built live and cannot be regenerated') {}

export class ReportOwnerOnlyError extends domainError('INSUFFICIENT_ROLE', 'Only the workspace owner can regenerate a report') {}

export class PeriodBeforeWorkspaceError extends domainError('PERIOD_BEFORE_WORKSPACE', 'This month ended before the workspace was created') {}

export class PeriodNotRetainedError extends domainError(
  'PERIOD_NOT_RETAINED',
  'Reports are kept for 400 days; this month is no longer retained',
) {}
