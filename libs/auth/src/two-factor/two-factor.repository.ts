import { Injectable } from '@nestjs/common';
import { PrismaService, PrismaTx } from '@dl/platform/db';

export interface TwoFactorState {
  id: string;
  email: string;
  totpSecret: string | null;
  totpPendingSecret: string | null;
  twoFactorEnabledAt: Date | null;
  totpLastStep: number | null;
  passwordHash: string;
}

const STATE_SELECT = {
  id: true,
  email: true,
  totpSecret: true,
  totpPendingSecret: true,
  twoFactorEnabledAt: true,
  totpLastStep: true,
  passwordHash: true,
} as const;

/**
 * A user's TOTP secret and recovery codes. These belong to the account, not to one
 * organization: every method takes the user id the caller authenticated as.
 */
@Injectable()
export class TwoFactorRepository {
  constructor(private readonly prisma: PrismaService) {}

  state(userId: string): Promise<TwoFactorState | null> {
    return this.prisma.user.findUnique({ where: { id: userId }, select: STATE_SELECT });
  }

  async setPendingSecret(userId: string, secret: string): Promise<void> {
    await this.prisma.user.update({ where: { id: userId }, data: { totpPendingSecret: secret } });
  }

  /**
   * Confirms the pending secret (only if it is still the one the code was checked against and
   * 2FA is still off) and stores the recovery codes' hashes, in one transaction. False: lost a race.
   */
  async enable(userId: string, pendingSecret: string, step: number, codeHashes: string[], at: Date): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.user.updateMany({
        where: { id: userId, totpPendingSecret: pendingSecret, twoFactorEnabledAt: null },
        data: { totpSecret: pendingSecret, totpPendingSecret: null, twoFactorEnabledAt: at, totpLastStep: step },
      });
      if (count !== 1) return false;
      await tx.recoveryCode.deleteMany({ where: { userId } });
      await tx.recoveryCode.createMany({ data: codeHashes.map((codeHash) => ({ userId, codeHash })) });
      return true;
    });
  }

  /** Turns 2FA off: the secrets and recovery codes go (in `tx` when given, e.g. an account claimed by an invitation). */
  async disable(userId: string, tx?: PrismaTx): Promise<void> {
    if (!tx) return this.prisma.$transaction((t) => this.disable(userId, t));
    await tx.user.update({
      where: { id: userId },
      data: { totpSecret: null, totpPendingSecret: null, twoFactorEnabledAt: null, totpLastStep: null },
    });
    await tx.recoveryCode.deleteMany({ where: { userId } });
  }

  /** Records an accepted step if it is later than the last one: false when another request used it first (replay). */
  async advanceStep(userId: string, step: number): Promise<boolean> {
    const count = await this.prisma.$executeRaw`
      UPDATE users SET totp_last_step = ${step}
       WHERE id = ${userId}::uuid AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < ${step})`;
    return count === 1;
  }

  /** Marks an unused recovery code used: false when unknown or already used (also under a race). */
  async useRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
    const { count } = await this.prisma.recoveryCode.updateMany({ where: { userId, codeHash, usedAt: null }, data: { usedAt: at } });
    return count === 1;
  }

  remainingRecoveryCodes(userId: string): Promise<number> {
    return this.prisma.recoveryCode.count({ where: { userId, usedAt: null } });
  }

  /** The organizations whose cached principals carry this user's 2FA state. */
  async organizationsOf(userId: string): Promise<string[]> {
    const rows = await this.prisma.membership.findMany({ where: { userId }, select: { organizationId: true } });
    return rows.map((r) => r.organizationId);
  }

  /** The user's role in one organization (the second step of a login), null if no longer a member. */
  async roleIn(organizationId: string, userId: string): Promise<string | null> {
    const m = await this.prisma.membership.findUnique({
      where: { organizationId_userId: { organizationId, userId } },
      select: { role: true },
    });
    return m?.role ?? null;
  }
}
