import { Injectable, Logger } from '@nestjs/common';
import { Tier } from '@dl/platform/db';
import { AuditRepository } from './audit.repository';

/** How long each plan keeps its audit log (decisions §25). */
export const AUDIT_RETENTION_DAYS: Readonly<Record<Tier, number>> = { FREE: 7, PRO: 90, BUSINESS: 365, UNLIMITED: 365 };
const DAY_MS = 86_400_000;
const DELETE_CHUNK = 5000;

/**
 * Deletes entries older than the organization's plan keeps them (the worker's daily
 * `audit.prune`). Deletion takes the oldest first, so what is left is still one chain whose
 * oldest entry anchors verification.
 */
@Injectable()
export class AuditRetentionService {
  private readonly logger = new Logger(AuditRetentionService.name);

  constructor(private readonly repo: AuditRepository) {}

  async prune(now: Date): Promise<{ organizations: number; deleted: number }> {
    const shortest = Math.min(...Object.values(AUDIT_RETENTION_DAYS));
    const candidates = await this.repo.organizationsWithEntriesBefore(new Date(now.getTime() - shortest * DAY_MS));
    let deleted = 0;
    for (const { organizationId, tier } of candidates) {
      const before = new Date(now.getTime() - AUDIT_RETENTION_DAYS[tier] * DAY_MS);
      for (;;) {
        const n = await this.repo.deleteOlderThan(organizationId, before, DELETE_CHUNK);
        deleted += n;
        if (n < DELETE_CHUNK) break;
      }
    }
    if (deleted) this.logger.log({ organizations: candidates.length, deleted }, 'audit entries past retention deleted');
    return { organizations: candidates.length, deleted };
  }
}
