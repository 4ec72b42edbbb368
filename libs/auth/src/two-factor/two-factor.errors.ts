import { domainError } from '@dl/platform/http';

/** Exact messages of decisions §20 (two-factor authentication), and ours where it is silent. */
export const TwoFactorMessages = {
  invalidCode: 'Invalid code',
  invalidChallenge: 'Invalid or expired challenge',
  required: 'Two-factor authentication required by your organization',
  notStarted: 'Start two-factor set-up first (POST /auth/2fa/setup)',
  alreadyEnabled: 'Two-factor authentication is already enabled',
  notEnabled: 'Two-factor authentication is not enabled',
  deletionScheduled: 'Organization scheduled for deletion',
} as const;

export class InvalidTwoFactorCodeError extends domainError('INVALID_TWO_FACTOR_CODE', TwoFactorMessages.invalidCode) {}
export class InvalidTwoFactorChallengeError extends domainError('INVALID_TWO_FACTOR_CHALLENGE', TwoFactorMessages.invalidChallenge) {}
export class TwoFactorRequiredError extends domainError('TWO_FACTOR_REQUIRED', TwoFactorMessages.required) {}
export class TwoFactorNotStartedError extends domainError('TWO_FACTOR_NOT_STARTED', TwoFactorMessages.notStarted) {}
export class TwoFactorAlreadyEnabledError extends domainError('TWO_FACTOR_ALREADY_ENABLED', TwoFactorMessages.alreadyEnabled) {}
export class TwoFactorNotEnabledError extends domainError('TWO_FACTOR_NOT_ENABLED', TwoFactorMessages.notEnabled) {}
/** Every route of an organization scheduled for deletion but reading it and restoring it (decisions §20). */
export class OrganizationDeletionScheduledError extends domainError('ORGANIZATION_DELETION_SCHEDULED', TwoFactorMessages.deletionScheduled) {}
