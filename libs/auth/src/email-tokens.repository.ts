import { Injectable } from '@nestjs/common';
import { EmailTokenKind, PrismaService, PrismaTx } from '@dl/platform/db';

/** Single-use emailed tokens (`dlv_`, `dlr_`) of an account; only hashes are stored. */
@Injectable()
export class EmailTokensRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  async create(userId: string, kind: EmailTokenKind, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.prisma.emailToken.create({ data: { userId, kind, tokenHash, expiresAt } });
  }

  /**
   * Marks a live token of this kind used and answers its user, or null (unknown, of another
   * kind, used or expired). A conditional update: of two uses, one wins.
   */
  async consume(tx: PrismaTx, kind: EmailTokenKind, tokenHash: string, now: Date): Promise<{ userId: string } | null> {
    const rows = await tx.emailToken.updateManyAndReturn({
      where: { tokenHash, kind, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
      select: { userId: true },
    });
    return rows[0] ?? null;
  }
}
