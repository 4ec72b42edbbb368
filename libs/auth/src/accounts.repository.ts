import { Injectable } from '@nestjs/common';
import type { Organization } from '@dl/platform/db';
import { Prisma, PrismaService, PrismaTx, Role, Tier } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';

export type OrganizationRow = Pick<Organization, 'id' | 'name' | 'slug' | 'tier' | 'createdAt'>;
export interface UserRow {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}
export interface UserWithPassword extends UserRow {
  passwordHash: string;
  emailVerifiedAt: Date | null;
}

const ORG_SELECT = { id: true, name: true, slug: true, tier: true, createdAt: true } as const;
const USER_SELECT = { id: true, email: true, name: true, createdAt: true } as const;

/** Organizations and users (the rows that exist outside any one organization). */
@Injectable()
export class AccountsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  findUserByEmail(email: string, tx: PrismaTx = this.prisma): Promise<UserWithPassword | null> {
    return tx.user.findUnique({ where: { email }, select: { ...USER_SELECT, passwordHash: true, emailVerifiedAt: true } });
  }

  findUser(userId: string, tx: PrismaTx = this.prisma): Promise<UserWithPassword | null> {
    return tx.user.findUnique({ where: { id: userId }, select: { ...USER_SELECT, passwordHash: true, emailVerifiedAt: true } });
  }

  /** What GET /auth/me shows of the account. */
  async findProfile(
    userId: string,
  ): Promise<{ id: string; email: string; name: string; emailVerifiedAt: Date | null; createdAt: Date; twoFactorEnabled: boolean } | null> {
    const row = await this.prisma.user.findUnique({
      where: { id: userId },
      select: { ...USER_SELECT, emailVerifiedAt: true, twoFactorEnabledAt: true },
    });
    if (!row) return null;
    const { twoFactorEnabledAt, ...rest } = row;
    return { ...rest, twoFactorEnabled: twoFactorEnabledAt !== null };
  }

  async setName(userId: string, name: string, tx: PrismaTx = this.prisma): Promise<void> {
    await tx.user.update({ where: { id: userId }, data: { name } });
  }

  /** Marks the address proven (first proof wins; later ones keep the date). */
  async markEmailVerified(tx: PrismaTx, userId: string, at: Date): Promise<void> {
    await tx.user.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: at } });
  }

  /**
   * Revokes every live API key of the user in every organization (an account claimed by the
   * owner of its email, decisions §20), answering their hashes for the credential cache.
   */
  async revokeAllKeysOfUser(tx: PrismaTx, userId: string, at: Date): Promise<string[]> {
    const rows = await tx.apiKey.updateManyAndReturn({ where: { userId, revokedAt: null }, data: { revokedAt: at }, select: { keyHash: true } });
    return rows.map((r) => r.keyHash);
  }

  /** The user's memberships with their organization, oldest first (GET /auth/me). */
  organizationsOfUser(userId: string): Promise<Array<{ role: Role; organization: OrganizationRow }>> {
    return this.prisma.membership.findMany({
      where: { userId },
      orderBy: { createdAt: 'asc' },
      select: { role: true, organization: { select: ORG_SELECT } },
    });
  }

  createUser(tx: PrismaTx, data: { email: string; name: string; passwordHash: string; emailVerifiedAt?: Date | null }): Promise<UserRow> {
    return tx.user.create({ data, select: USER_SELECT });
  }

  /**
   * An organization, its first member and its `default` template (signup semantics,
   * decisions §2: the template's originalUrl default is unset).
   */
  async createOrganization(
    tx: PrismaTx,
    data: { name: string; slug: string; tier: Tier; ownerId: string },
  ): Promise<{ organization: OrganizationRow; templateId: string }> {
    const organization = await tx.organization.create({
      data: { name: data.name, slug: data.slug, tier: data.tier },
      select: ORG_SELECT,
    });
    await tx.membership.create({ data: { organizationId: organization.id, userId: data.ownerId, role: 'OWNER' } });
    const template = await tx.template.create({
      data: {
        organizationId: organization.id,
        name: 'Default',
        slug: 'default',
        description: 'Defaults applied to links created without another template',
        defaults: {},
      },
      select: { id: true },
    });
    return { organization, templateId: template.id };
  }

  async setPasswordHash(userId: string, passwordHash: string, tx: PrismaTx = this.prisma): Promise<void> {
    await tx.user.update({ where: { id: userId }, data: { passwordHash } });
  }

  /** Compare-and-set: replaces the hash only if it is still `expected`. */
  async replacePasswordHash(userId: string, expected: string, passwordHash: string): Promise<boolean> {
    const { count } = await this.prisma.user.updateMany({ where: { id: userId, passwordHash: expected }, data: { passwordHash } });
    return count === 1;
  }

  slugTaken(slug: string, tx: PrismaTx = this.prisma): Promise<boolean> {
    return tx.organization.findUnique({ where: { slug }, select: { id: true } }).then(Boolean);
  }

  /** The user's memberships, oldest first, with their organization's tier. */
  membershipsOfUser(userId: string): Promise<Array<{ organizationId: string; role: Role }>> {
    return this.prisma.membership.findMany({
      where: { userId },
      orderBy: { createdAt: 'asc' },
      select: { organizationId: true, role: true },
    });
  }

  findOrganization(organizationId: string): Promise<OrganizationRow | null> {
    return this.prisma.organization.findUnique({ where: { id: organizationId }, select: ORG_SELECT });
  }

  /** By id (UUID) or slug: the operator CLI's `<org>`. */
  findOrganizationByRef(ref: string): Promise<OrganizationRow | null> {
    return this.prisma.organization.findFirst({
      where: isUuid(ref) ? { OR: [{ id: ref }, { slug: ref }] } : { slug: ref },
      select: ORG_SELECT,
    });
  }

  setTier(organizationId: string, tier: Tier): Promise<OrganizationRow> {
    return this.prisma.organization.update({ where: { id: organizationId }, data: { tier }, select: ORG_SELECT });
  }

  isUniqueViolation(err: unknown): boolean {
    return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
  }
}
