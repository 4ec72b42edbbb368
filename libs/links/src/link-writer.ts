import { Injectable } from '@nestjs/common';
import { hostCodeKey } from '@dl/platform/config';
import { PrismaTx, Tier } from '@dl/platform/db';
import { PlansService } from '@dl/auth';
import { LinkRecord, NewLinkRow } from './link.types';
import { LinksRepository } from './links.repository';
import { LinkLimitExceededError, ShortCodeExhaustedError, ShortCodeInUseError } from './links.errors';
import { generateShortCode, isReservedCode, SHORT_CODE_ATTEMPTS } from './short-code';

/**
 * Inserts new links (one or many) with the rules every creation path shares:
 * reserved codes, the plan's link limit (serialized per organization), one
 * multi-row INSERT per attempt, the unique index deciding collisions, random
 * codes retried up to 5 times, custom codes refused with 409.
 */
@Injectable()
export class LinkWriter {
  constructor(
    private readonly repo: LinksRepository,
    private readonly plans: PlansService,
  ) {}

  /** Inserts all rows or none (its own transaction unless `tx` is given). Returns records in input order. */
  async insertAll(organizationId: string, tier: Tier, rows: NewLinkRow[], tx?: PrismaTx): Promise<LinkRecord[]> {
    this.refuseReservedAndDuplicates(rows);
    // Plan limits (decisions §5) come from the identity module, so PLAN_LIMITS overrides apply.
    const limit = this.plans.limits(tier).links;
    // A single row needs no transaction without a limit; several rows must be all-or-nothing.
    if (limit === null && !tx && rows.length === 1) return this.insertWithRetries(undefined, rows);
    const run = async (t: PrismaTx) => {
      if (limit !== null) {
        await this.repo.lockOrganizationLinks(t, organizationId);
        const used = await this.repo.countLinks(organizationId, t);
        if (used + rows.length > limit) throw new LinkLimitExceededError();
      }
      return this.insertWithRetries(t, rows);
    };
    return tx ? run(tx) : this.repo.transaction(run);
  }

  /** Links the organization may still create on its plan (null: no limit). A read, not a reservation. */
  async remainingLinks(organizationId: string, tier: Tier): Promise<number | null> {
    const limit = this.plans.limits(tier).links;
    if (limit === null) return null;
    return Math.max(0, limit - (await this.repo.countLinks(organizationId)));
  }

  private refuseReservedAndDuplicates(rows: NewLinkRow[]): void {
    const seen = new Set<string>();
    for (const row of rows) {
      if (!row.custom) continue;
      // A row without a domain goes on the organization's default one: the same place for every such row.
      const key = hostCodeKey(row.domainName ?? '*', row.shortCode);
      if (isReservedCode(row.shortCode) || seen.has(key)) throw new ShortCodeInUseError(row.shortCode);
      seen.add(key);
    }
  }

  /** A fresh random code (a seam for tests of the retry rule). */
  protected newCode(): string {
    return generateShortCode();
  }

  private async insertWithRetries(db: PrismaTx | undefined, input: NewLinkRow[]): Promise<LinkRecord[]> {
    const rows = [...input];
    const out: Array<LinkRecord | null> = rows.map(() => null);
    let pending = rows.map((_, i) => i);
    for (let attempt = 0; attempt < SHORT_CODE_ATTEMPTS && pending.length; attempt++) {
      // One row outside a transaction (single create): grouped with concurrent creates.
      const results = !db && rows.length === 1 ? [await this.repo.insertLink(rows[0])] : await this.repo.insertLinks(pending.map((i) => rows[i]), db);
      const lost: number[] = [];
      for (const [k, i] of pending.entries()) {
        if (results[k]) out[i] = results[k];
        else if (rows[i].custom) throw new ShortCodeInUseError(rows[i].shortCode);
        else lost.push(i);
      }
      pending = lost;
      for (const i of pending) rows[i] = { ...rows[i], shortCode: this.newCode() };
    }
    if (pending.length) throw new ShortCodeExhaustedError();
    return out as LinkRecord[];
  }
}
