import { Injectable } from '@nestjs/common';
import { DomainStatus, isUniqueViolation, Prisma, PrismaService, PrismaTx } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';

export interface DomainRecord {
  id: string;
  organizationId: string;
  domain: string;
  status: DomainStatus;
  /** The name while verified or invalid (held: unique across the service), null while pending. */
  heldName: string | null;
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

/**
 * A check's outcome as written: `lost` when another organization holds the name (its pending
 * claim is then removed), `missing` when the claim is gone (removed by the winner, or deleted).
 */
export type RecordCheckResult = { kind: 'recorded'; record: DomainRecord; removedClaims: number } | { kind: 'lost' } | { kind: 'missing' };

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
   * Creates a pending claim within the plan's limit, checked under a lock on the organization
   * so concurrent creations cannot overshoot. `taken` when this organization already has the
   * name, or another one holds it (verified or invalid); another organization's pending claim
   * does not count (decisions §22). The name's lock orders this against a verification.
   */
  async create(organizationId: string, domain: string, token: string, limit: number | null): Promise<CreateDomainResult> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.$queryRaw(Prisma.sql`SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`);
        await lockName(tx, domain);
        const existing = await tx.domain.findFirst({ where: { domain, OR: [{ organizationId }, { heldName: domain }] }, select: { id: true } });
        if (existing) return { kind: 'taken' as const };
        if (limit !== null && (await tx.domain.count({ where: { organizationId } })) >= limit) return { kind: 'limit' as const };
        const record = await tx.domain.create({ data: { organizationId, domain, verificationToken: token } });
        return { kind: 'created' as const, record };
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { kind: 'taken' };
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

  /**
   * Writes the outcome of a DNS check. A pending claim that verifies takes the name (`held_name`,
   * unique) and removes every other organization's pending claim of it in the same transaction,
   * under the name's lock: of two claims verifying at once exactly one wins, and the loser's
   * claim is removed (decisions §22).
   */
  async recordCheck(organizationId: string, id: string, outcome: DomainCheckOutcome): Promise<RecordCheckResult> {
    if (!isUuid(id)) return { kind: 'missing' };
    const data = { ...outcome, updatedAt: new Date() };
    if (outcome.status === DomainStatus.pending) {
      // Only while still pending: a verification that landed meanwhile is not undone.
      await this.prisma.domain.updateMany({ where: { id, organizationId, status: DomainStatus.pending }, data });
      const record = await this.prisma.domain.findFirst({ where: { id, organizationId } });
      return record ? { kind: 'recorded', record, removedClaims: 0 } : { kind: 'missing' };
    }
    try {
      return await this.prisma.$transaction(async (tx) => {
        const name = (await tx.domain.findFirst({ where: { id, organizationId }, select: { domain: true } }))?.domain;
        if (name === undefined) return { kind: 'missing' as const };
        await lockName(tx, name);
        const current = await this.lock(tx, organizationId, id);
        if (!current) return { kind: 'missing' as const };
        if (current.status !== DomainStatus.pending) {
          return { kind: 'recorded' as const, record: await tx.domain.update({ where: { id }, data }), removedClaims: 0 };
        }
        if (await tx.domain.findUnique({ where: { heldName: name }, select: { id: true } })) {
          await tx.domain.delete({ where: { id } });
          return { kind: 'lost' as const };
        }
        const record = await tx.domain.update({ where: { id }, data: { ...data, heldName: name } });
        const removed = await tx.domain.deleteMany({ where: { domain: name, status: DomainStatus.pending, id: { not: id } } });
        return { kind: 'recorded' as const, record, removedClaims: removed.count };
      });
    } catch (err) {
      // Only reachable without the name's lock (a claim written by hand): the index still decides.
      if (!isUniqueViolation(err)) throw err;
      await this.prisma.domain.deleteMany({ where: { id, organizationId, status: DomainStatus.pending } });
      return { kind: 'lost' };
    }
  }

  /** Global (the worker's schedule): removes pending claims created at or before `before`; answers how many. */
  async removeExpiredClaims(before: Date): Promise<number> {
    const { count } = await this.prisma.domain.deleteMany({ where: { status: DomainStatus.pending, createdAt: { lte: before } } });
    return count;
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

/** A transaction lock on one domain name: claims of a name are created and verified one at a time. */
async function lockName(tx: PrismaTx, domain: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`domain:${domain}`}, 0))`;
}
