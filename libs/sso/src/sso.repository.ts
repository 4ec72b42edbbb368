import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, PrismaTx, Role } from '@dl/platform/db';
import { SsoDomainStatusName, SsoTypeName } from './sso.dto';

/** An organization's SSO connection as stored (the client secret sealed). */
export interface SsoConnectionRow {
  organizationId: string;
  type: SsoTypeName;
  issuer: string | null;
  clientId: string | null;
  clientSecret: string | null;
  entryPoint: string | null;
  certificate: string | null;
  idpMetadataXml: string | null;
  enforce: boolean;
  defaultRole: Role;
  updatedAt: Date;
}

export interface SsoDomainRow {
  id: string;
  organizationId: string;
  domain: string;
  status: SsoDomainStatusName;
  token: string;
  verifiedAt: Date | null;
  createdAt: Date;
}

export type SsoConnectionInput = Omit<SsoConnectionRow, 'organizationId' | 'updatedAt'>;

const CONNECTION_SELECT = {
  organizationId: true,
  type: true,
  issuer: true,
  clientId: true,
  clientSecret: true,
  entryPoint: true,
  certificate: true,
  idpMetadataXml: true,
  enforce: true,
  defaultRole: true,
  updatedAt: true,
} as const;

/** The partial unique index of verified domains (one organization per verified email domain). */
export const VERIFIED_DOMAIN_INDEX = 'sso_domains_verified_domain';

/**
 * SSO connections and domains. Every method of an organization's setting takes the organization;
 * the lookups by email domain (start, enforcement) derive it from the verified domain.
 */
@Injectable()
export class SsoRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  findConnection(organizationId: string, tx: PrismaTx = this.prisma): Promise<SsoConnectionRow | null> {
    return tx.ssoConnection.findUnique({ where: { organizationId }, select: CONNECTION_SELECT });
  }

  async upsertConnection(tx: PrismaTx, organizationId: string, data: SsoConnectionInput): Promise<void> {
    await tx.ssoConnection.upsert({ where: { organizationId }, create: { organizationId, ...data }, update: data });
  }

  listDomains(organizationId: string, tx: PrismaTx = this.prisma): Promise<SsoDomainRow[]> {
    return tx.ssoDomain.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { domain: 'asc' }] });
  }

  async addDomain(tx: PrismaTx, organizationId: string, domain: string, token: string): Promise<void> {
    await tx.ssoDomain.create({ data: { organizationId, domain, token } });
  }

  async removeDomains(tx: PrismaTx, organizationId: string, domains: string[]): Promise<void> {
    if (domains.length) await tx.ssoDomain.deleteMany({ where: { organizationId, domain: { in: domains } } });
  }

  /** The organization that verified `domain`, if another one did. */
  async verifiedElsewhere(domain: string, organizationId: string, tx: PrismaTx = this.prisma): Promise<boolean> {
    const row = await tx.ssoDomain.findFirst({ where: { domain, status: 'verified', organizationId: { not: organizationId } }, select: { id: true } });
    return row !== null;
  }

  /** Marks a pending domain verified; a unique violation of VERIFIED_DOMAIN_INDEX means another organization won it. */
  async markVerified(organizationId: string, id: string, at: Date): Promise<void> {
    await this.prisma.ssoDomain.updateMany({ where: { id, organizationId, status: 'pending' }, data: { status: 'verified', verifiedAt: at } });
  }

  /** The verified domain's organization and its connection (start, callback, enforcement). */
  async findByVerifiedDomain(domain: string): Promise<{ domain: SsoDomainRow; connection: SsoConnectionRow } | null> {
    const row = await this.prisma.ssoDomain.findFirst({
      where: { domain, status: 'verified' },
      include: { organization: { select: { ssoConnection: { select: CONNECTION_SELECT } } } },
    });
    const connection = row?.organization.ssoConnection;
    if (!row || !connection) return null;
    const { organization: _o, ...domainRow } = row;
    return { domain: domainRow, connection };
  }

  async isVerifiedDomainOf(organizationId: string, domain: string): Promise<boolean> {
    return (await this.prisma.ssoDomain.count({ where: { organizationId, domain, status: 'verified' } })) > 0;
  }

  // Just-in-time accounts (decisions §25).

  lockOrganization(tx: PrismaTx, organizationId: string): Promise<unknown> {
    return tx.$queryRaw(Prisma.sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
  }

  findUserByEmail(tx: PrismaTx, email: string): Promise<{ id: string; emailVerifiedAt: Date | null } | null> {
    return tx.user.findUnique({ where: { email }, select: { id: true, emailVerifiedAt: true } });
  }

  createUser(tx: PrismaTx, data: { email: string; name: string; passwordHash: string; at: Date }): Promise<{ id: string }> {
    return tx.user.create({ data: { email: data.email, name: data.name, passwordHash: data.passwordHash, emailVerifiedAt: data.at }, select: { id: true } });
  }

  async markEmailVerified(tx: PrismaTx, userId: string, at: Date): Promise<void> {
    await tx.user.updateMany({ where: { id: userId, emailVerifiedAt: null }, data: { emailVerifiedAt: at } });
  }

  findMembership(tx: PrismaTx, organizationId: string, userId: string): Promise<{ role: Role } | null> {
    return tx.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { role: true } });
  }

  async addMember(tx: PrismaTx, organizationId: string, userId: string, role: Role): Promise<void> {
    await tx.membership.create({ data: { organizationId, userId, role } });
  }
}
