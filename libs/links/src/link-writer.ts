import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, hostCodeKey } from '@dl/platform/config';
import { PrismaTx, Tier } from '@dl/platform/db';
import { PlansService } from '@dl/auth';
import { LinkRecord, NewLinkRow } from './link.types';
import { LinksRepository } from './links.repository';
import { LinkLimitExceededError, NewOrganizationLinkLimitError, ShortCodeExhaustedError, ShortCodeInUseError } from './links.errors';

/** How long an organization counts as new (decisions §22). */
const NEW_ORGANIZATION_MS = 24 * 3600 * 1000;
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
        if (tier === 'FREE' && used + rows.length > this.config.NEW_ORG_LINK_LIMIT && (await this.isNew(organizationId, t))) {
          throw new NewOrganizationLinkLimitError(this.config.NEW_ORG_LINK_LIMIT);
        }
      }
      return this.insertWithRetries(t, rows);
    };
    return tx ? run(tx) : this.repo.transaction(run);
  }

  /** Links the organization may still create on its plan (null: no limit). A read, not a reservation. */
  async remainingLinks(organizationId: string, tier: Tier): Promise<number | null> {
    const limit = this.plans.limits(tier).links;
    if (limit === null) return null;
    const used = await this.repo.countLinks(organizationId);
    const firstDay = tier === 'FREE' && (await this.isNew(organizationId)) ? this.config.NEW_ORG_LINK_LIMIT : limit;
    return Math.max(0, Math.min(limit, firstDay) - used);
  }

  /** A FREE organization younger than 24 h is capped at NEW_ORG_LINK_LIMIT links. */
  private async isNew(organizationId: string, tx?: PrismaTx): Promise<boolean> {
    const created = await this.repo.organizationCreatedAt(organizationId, tx);
    return created !== null && Date.now() - created.getTime() < NEW_ORGANIZATION_MS;
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
