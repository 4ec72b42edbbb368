import { DomainStatus } from '@dl/platform/db';
import { VerificationResult } from './dns-verifier';
import { DomainCheckOutcome, DomainRecord } from './domains.repository';

/** Pending domains are re-checked every 10 minutes for 7 days, verified (and invalid) ones daily. */
export const RECHECK = {
  pendingEvery: 10 * 60_000,
  pendingFor: 7 * 24 * 3600_000,
  verifiedEvery: 24 * 3600_000,
  /** Consecutive failed daily checks that make a verified domain invalid. */
  failedDaysToInvalid: 3,
} as const;

/**
 * The state after a DNS check (decisions §15). A success verifies (again). A failure keeps a
 * pending domain pending with the reason; for a verified domain only the daily scheduled
 * check counts towards `invalid` (three in a row), so pressing "verify" a few times in a
 * minute cannot retire a working domain. An invalid domain stops being the default.
 */
export function checkOutcome(
  d: Pick<DomainRecord, 'status' | 'failedChecks' | 'verifiedAt' | 'isDefault'>,
  result: VerificationResult,
  now: Date,
  source: 'manual' | 'scheduled',
): DomainCheckOutcome {
  if (result.ok) {
    return {
      status: DomainStatus.verified,
      verificationError: null,
      failedChecks: 0,
      verifiedAt: d.status === DomainStatus.verified && d.verifiedAt ? d.verifiedAt : now,
      lastCheckedAt: now,
    };
  }
  if (d.status === DomainStatus.pending) {
    return { status: d.status, verificationError: result.error, failedChecks: 0, verifiedAt: null, lastCheckedAt: now };
  }
  const failedChecks = source === 'scheduled' ? d.failedChecks + 1 : d.failedChecks;
  const invalid = d.status === DomainStatus.invalid || failedChecks >= RECHECK.failedDaysToInvalid;
  return {
    status: invalid ? DomainStatus.invalid : DomainStatus.verified,
    verificationError: result.error,
    failedChecks,
    verifiedAt: d.verifiedAt,
    lastCheckedAt: now,
    ...(invalid && d.isDefault ? { isDefault: null } : {}),
  };
}
