import { checkOutcome } from './domain-check';

describe(checkOutcome.name, () => {
  const now = new Date('2026-11-25T10:00:00Z');
  const earlier = new Date('2026-11-20T10:00:00Z');
  const fail = { ok: false as const, error: 'No TXT record found at _dl-verify.go.a.test' };
  const pending = { status: 'pending' as const, failedChecks: 0, verifiedAt: null, isDefault: null };
  type State = Parameters<typeof checkOutcome>[0];
  const verified: State = { status: 'verified', failedChecks: 0, verifiedAt: earlier, isDefault: true };

  it('verifies a pending domain on success', () => {
    expect(checkOutcome(pending, { ok: true }, now, 'manual')).toEqual({
      status: 'verified', verificationError: null, failedChecks: 0, verifiedAt: now, lastCheckedAt: now,
    });
  });

  it('keeps a pending domain pending with the reason on failure', () => {
    expect(checkOutcome(pending, fail, now, 'scheduled')).toMatchObject({ status: 'pending', verificationError: fail.error, verifiedAt: null });
  });

  it('keeps verifiedAt of a domain that stays verified', () => {
    expect(checkOutcome(verified, { ok: true }, now, 'scheduled').verifiedAt).toBe(earlier);
  });

  it('makes a verified domain invalid after three failed scheduled checks in a row, and drops the default', () => {
    let d: State = { ...verified };
    for (let day = 1; day <= 2; day++) {
      const o = checkOutcome(d, fail, now, 'scheduled');
      expect(o).toMatchObject({ status: 'verified', failedChecks: day, verificationError: fail.error });
      expect(o.isDefault).toBeUndefined();
      d = { ...d, ...o };
    }
    expect(checkOutcome(d, fail, now, 'scheduled')).toMatchObject({ status: 'invalid', failedChecks: 3, isDefault: null });
  });

  it('does not count manual failures towards invalid', () => {
    expect(checkOutcome({ ...verified, failedChecks: 2 }, fail, now, 'manual')).toMatchObject({ status: 'verified', failedChecks: 2 });
  });

  it('a success resets the count, and verifies an invalid domain again', () => {
    expect(checkOutcome({ ...verified, failedChecks: 2 }, { ok: true }, now, 'scheduled').failedChecks).toBe(0);
    expect(checkOutcome({ ...verified, status: 'invalid', failedChecks: 3, isDefault: null }, { ok: true }, now, 'scheduled')).toMatchObject({
      status: 'verified', verifiedAt: now,
    });
  });
});
