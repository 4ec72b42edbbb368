import { Injectable } from '@nestjs/common';
import { hostCodeKey } from '@dl/platform/config';
import { Prisma, PrismaService, Tier } from '@dl/platform/db';

export interface OrganizationSettingsRow {
  id: string;
  name: string;
  slug: string;
  tier: Tier;
  requireTwoFactor: boolean;
  createdAt: Date;
  deletionScheduledAt: Date | null;
}

const SELECT = { id: true, name: true, slug: true, tier: true, requireTwoFactor: true, createdAt: true, deletionScheduledAt: true } as const;

/** The organization row itself: every method takes the caller's organization id. */
@Injectable()
export class OrganizationSettingsRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(organizationId: string): Promise<OrganizationSettingsRow | null> {
    return this.prisma.organization.findUnique({ where: { id: organizationId }, select: SELECT });
  }

  /** Null when the slug is another organization's (the unique index decides, so two renames cannot both take it). */
  async update(
    organizationId: string,
    data: { name?: string; slug?: string; requireTwoFactor?: boolean },
  ): Promise<OrganizationSettingsRow | null> {
    try {
      return await this.prisma.organization.update({ where: { id: organizationId }, data, select: SELECT });
    } catch (err) {
      if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002') return null;
      throw err;
    }
  }

  /** Sets the deletion date unless one is set already; answers the row as it is then. */
  async scheduleDeletion(organizationId: string, at: Date): Promise<OrganizationSettingsRow | null> {
    await this.prisma.organization.updateMany({ where: { id: organizationId, deletionScheduledAt: null }, data: { deletionScheduledAt: at } });
    return this.find(organizationId);
  }

  async cancelDeletion(organizationId: string): Promise<OrganizationSettingsRow | null> {
    await this.prisma.organization.updateMany({ where: { id: organizationId }, data: { deletionScheduledAt: null } });
    return this.find(organizationId);
  }

  /** The redirect cache keys of the organization's links, a thousand at a time (keyset by id). */
  async *linkKeys(organizationId: string): AsyncGenerator<string[]> {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await this.prisma.$queryRaw<Array<{ id: string; domain_name: string; short_code: string }>>`
        SELECT id, domain_name, short_code FROM links
         WHERE organization_id = ${organizationId}::uuid AND id > ${after}::uuid ORDER BY id LIMIT 1000`;
      if (!rows.length) return;
      yield rows.map((r) => hostCodeKey(r.domain_name, r.short_code));
      after = rows[rows.length - 1].id;
    }
  }

  /** The Owners' emails and the requester's name, for the deletion email. */
  async ownersAndRequester(organizationId: string, userId: string): Promise<{ owners: string[]; requestedBy: string | null }> {
    const members = await this.prisma.membership.findMany({
      where: { organizationId, OR: [{ role: 'OWNER' }, { userId }] },
      select: { role: true, userId: true, user: { select: { email: true, name: true } } },
    });
    return {
      owners: members.filter((m) => m.role === 'OWNER').map((m) => m.user.email),
      requestedBy: members.find((m) => m.userId === userId)?.user.name ?? null,
    };
  }
}
