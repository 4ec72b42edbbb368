import { sqlState } from '@dl/platform/db';
import { rejectionOf, useRepository } from '@dl/testing';
import { TwoFactorRepository } from './two-factor.repository';

const SECRET = 'JBSWY3DPEHPK3PXP';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe(TwoFactorRepository.name, () => {
  const t = useRepository((prisma) => new TwoFactorRepository(prisma));

  it('enables a pending secret with recovery codes, accepts each later step once, uses a code once, and disables', async () => {
    const user = t.acme.owner.user.id;
    await t.repo.setPendingSecret(user, SECRET);
    expect(await t.repo.state(user)).toMatchObject({ totpSecret: null, totpPendingSecret: SECRET, twoFactorEnabledAt: null });
    const at = new Date('2030-01-01T00:00:00Z');
    expect(await t.repo.enable(user, SECRET, 100, ['h1', 'h2', 'h3'], at)).toBe(true);
    expect(await t.repo.state(user)).toEqual({ id: user, email: t.acme.owner.user.email, totpSecret: SECRET, totpPendingSecret: null, twoFactorEnabledAt: at, totpLastStep: 100, passwordHash: expect.any(String) });
    // A replay of an enable (the secret is no longer pending) loses.
    expect(await t.repo.enable(user, SECRET, 101, ['x'], at)).toBe(false);

    expect(await t.repo.advanceStep(user, 100)).toBe(false);
    expect(await t.repo.advanceStep(user, 101)).toBe(true);
    expect(await t.repo.advanceStep(user, 101)).toBe(false);
    expect(await t.repo.useRecoveryCode(user, 'h2', at)).toBe(true);
    expect(await t.repo.useRecoveryCode(user, 'h2', at)).toBe(false);
    expect(await t.repo.remainingRecoveryCodes(user)).toBe(2);

    expect(await t.repo.organizationsOf(user)).toEqual([t.acme.organization.id]);
    expect(await t.repo.roleIn(t.acme.organization.id, user)).toBe('OWNER');

    await t.repo.disable(user);
    expect(await t.repo.state(user)).toMatchObject({ totpSecret: null, totpPendingSecret: null, twoFactorEnabledAt: null, totpLastStep: null });
    expect(await t.repo.remainingRecoveryCodes(user)).toBe(0);
    expect(await t.repo.advanceStep(user, 500)).toBe(false);
  });

  it("another account's secret, codes and steps are out of reach; another organization answers no role", async () => {
    const mine = t.acme.owner.user.id;
    const theirs = t.other.owner.user.id;
    await t.repo.setPendingSecret(mine, SECRET);
    await t.repo.enable(mine, SECRET, 10, ['mine'], new Date());
    // The other account confirms a secret it never had pending, or spends a code it does not own: nothing changes.
    expect(await t.repo.enable(theirs, SECRET, 11, ['theirs'], new Date())).toBe(false);
    expect(await t.repo.useRecoveryCode(theirs, 'mine', new Date())).toBe(false);
    expect(await t.repo.advanceStep(theirs, 11)).toBe(false);
    expect(await t.repo.remainingRecoveryCodes(mine)).toBe(1);
    expect(await t.repo.state(mine)).toMatchObject({ totpSecret: SECRET, totpLastStep: 10 });
    expect(await t.repo.roleIn(t.other.organization.id, mine)).toBeNull();
    expect(await t.repo.state(UNKNOWN)).toBeNull();
    await t.repo.disable(mine);
  });

  it('two enables of one pending secret at once: exactly one stores its codes', async () => {
    const user = t.other.owner.user.id;
    await t.repo.setPendingSecret(user, SECRET);
    const results = await Promise.all([1, 2, 3].map((n) => t.repo.enable(user, SECRET, n, [`race-${n}`], new Date())));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await t.repo.remainingRecoveryCodes(user)).toBe(1);
  });

  it('a pending secret for an unknown user is refused by the database (P2025: no row to update)', async () => {
    const err = (await rejectionOf(t.repo.setPendingSecret(UNKNOWN, SECRET))) as { code?: string };
    expect(err.code).toBe('P2025');
    expect(sqlState(await rejectionOf(t.repo.state('not-a-uuid')))).toBe('22P02');
  });
});
