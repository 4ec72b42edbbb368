import { Injectable } from '@nestjs/common';
import { DomainStatus, isUniqueViolation, Prisma, PrismaService, PrismaTx } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';

export interface DomainRecord {
  id: string;
  organizationId: string;
  domain: string;
  status: DomainStatus;
  verificationToken: string;
  /** true, or null (never false: see the unique index in the schema). */
  isDefault: boolean | null;
  rootRedirectUrl: string | null;
  notFoundUrl: string | null;
  verificationError: string | null;
  failedChecks: number;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface DomainSettings {
  isDefault?: boolean;
  rootRedirectUrl?: string | null;
  notFoundUrl?: string | null;
}

/** Fields a DNS check writes. */
export interface DomainCheckOutcome {
  status: DomainStatus;
  verificationError: string | null;
  failedChecks: number;
  verifiedAt: Date | null;
  lastCheckedAt: Date;
  isDefault?: null;
}

export type CreateDomainResult =
  | { kind: 'created'; record: DomainRecord }
  | { kind: 'taken' }
  | { kind: 'limit' };

export type UpdateDomainResult = { kind: 'updated'; record: DomainRecord } | { kind: 'missing' } | { kind: 'not-verified' };

export type DeleteDomainResult = { kind: 'deleted'; record: DomainRecord } | { kind: 'missing' } | { kind: 'in-use'; links: number };


/** Branded domains. Tenant methods take the organization id; the global ones say so. */
@Injectable()
export class DomainsRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(organizationId: string): Promise<DomainRecord[]> {
    return this.prisma.domain.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }

  async find(organizationId: string, id: string): Promise<DomainRecord | null> {
    if (!isUuid(id)) return null;
    return this.prisma.domain.findFirst({ where: { id, organizationId } });
  }

  /** The organization's domain by name (any status), or null. */
  findByName(organizationId: string, domain: string): Promise<DomainRecord | null> {
    return this.prisma.domain.findFirst({ where: { organizationId, domain } });
  }

  /** The organization's default domain (verified by construction), or null. */
  findDefault(organizationId: string): Promise<DomainRecord | null> {
    return this.prisma.domain.findFirst({ where: { organizationId, isDefault: true, status: DomainStatus.verified } });
  }

  /**
   * Creates a pending domain within the plan's limit, checked under a lock on the
   * organization so concurrent creations cannot overshoot; the name is unique across
   * the service (the unique index decides a race).
   */
  async create(organizationId: string, domain: string, token: string, limit: number | null): Promise<CreateDomainResult> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.$queryRaw(Prisma.sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
        if (await tx.domain.findUnique({ where: { domain }, select: { id: true } })) return { kind: 'taken' as const };
        if (limit !== null && (await tx.domain.count({ where: { organizationId } })) >= limit) return { kind: 'limit' as const };
        const record = await tx.domain.create({ data: { organizationId, domain, verificationToken: token } });
        return { kind: 'created' as const, record };
      });
    } catch (err) {
      if (isUniqueViolation(err, 'domain')) return { kind: 'taken' };
      throw err;
    }
  }

  /**
   * Applies settings; making a domain the default unsets the previous one in the same
   * transaction. A default switch first locks the organization row (as create does), so
   * concurrent switches run one after the other instead of racing on the one-default index.
   */
  async update(organizationId: string, id: string, settings: DomainSettings): Promise<UpdateDomainResult> {
    if (!isUuid(id)) return { kind: 'missing' };
    return this.prisma.$transaction(async (tx) => {
      if (settings.isDefault === true) {
        await tx.$queryRaw(Prisma.sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
      }
      const current = await this.lock(tx, organizationId, id);
      if (!current) return { kind: 'missing' as const };
      if (settings.isDefault === true && current.status !== DomainStatus.verified) return { kind: 'not-verified' as const };
      if (settings.isDefault === true && !current.isDefault) {
        await tx.domain.updateMany({ where: { organizationId, isDefault: true }, data: { isDefault: null, updatedAt: new Date() } });
      }
      const { isDefault, ...urls } = settings;
      const data = { ...urls, ...(isDefault === undefined ? {} : { isDefault: isDefault ? true : null }), updatedAt: new Date() };
      const record = await tx.domain.update({ where: { id }, data });
      return { kind: 'updated' as const, record };
    });
  }

  /** Deletes the domain unless links are on it (counted under the row's lock). */
  async delete(organizationId: string, id: string): Promise<DeleteDomainResult> {
    if (!isUuid(id)) return { kind: 'missing' };
    return this.prisma.$transaction(async (tx) => {
      const current = await this.lock(tx, organizationId, id);
      if (!current) return { kind: 'missing' as const };
      const links = await this.countLinks(tx, id);
      if (links > 0) return { kind: 'in-use' as const, links };
      await tx.domain.delete({ where: { id } });
      return { kind: 'deleted' as const, record: current };
    });
  }

  /** Writes the outcome of a DNS check. */
  recordCheck(organizationId: string, id: string, outcome: DomainCheckOutcome): Promise<DomainRecord> {
    return this.prisma.domain.update({ where: { id, organizationId }, data: { ...outcome, updatedAt: new Date() } });
  }

  /**
   * Global (the worker's schedule): domains due for a DNS re-check at `now`: pending ones
   * younger than `pendingFor` not checked for `pendingEvery`, verified and invalid ones not
   * checked for `verifiedEvery`. Oldest checks first, at most `limit`.
   */
  dueForCheck(now: Date, o: { pendingFor: number; pendingEvery: number; verifiedEvery: number; limit: number }): Promise<DomainRecord[]> {
    const at = (ms: number) => new Date(now.getTime() - ms);
    return this.prisma.domain.findMany({
      where: {
        OR: [
          {
            status: DomainStatus.pending,
            createdAt: { gt: at(o.pendingFor) },
            OR: [{ lastCheckedAt: null }, { lastCheckedAt: { lte: at(o.pendingEvery) } }],
          },
          {
            status: { in: [DomainStatus.verified, DomainStatus.invalid] },
            OR: [{ lastCheckedAt: null }, { lastCheckedAt: { lte: at(o.verifiedEvery) } }],
          },
        ],
      },
      orderBy: [{ lastCheckedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
      take: o.limit,
    });
  }

  private async lock(tx: PrismaTx, organizationId: string, id: string): Promise<DomainRecord | null> {
    const rows = await tx.$queryRaw<Array<{ id: string }>>(
      Prisma.sql`SELECT id FROM domains WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`,
    );
    if (!rows.length) return null;
    return tx.domain.findUnique({ where: { id } });
  }

  private countLinks(tx: PrismaTx, domainId: string): Promise<number> {
    return tx.link.count({ where: { domainId } });
  }
}
