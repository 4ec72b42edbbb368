import { Inject, Injectable, Logger } from '@nestjs/common';
import { DEFAULT_PLAN_LIMITS, parsePlanLimits } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { PrismaService, Tier } from '@dl/platform/db';

/** Raw click history kept per plan by default (decisions §5: 30 days, 1 year, 3 years). Rollups are kept for good. */
export const RAW_CLICK_RETENTION_DAYS: Record<Tier, number> = Object.fromEntries(
  Object.entries(DEFAULT_PLAN_LIMITS).map(([tier, limits]) => [tier, limits.rawClickRetentionDays]),
) as Record<Tier, number>;

const DAY_MS = 24 * 3600 * 1000;

export interface PruneResult {
  clicks: number;
  dailyVisitors: number;
}

@Injectable()
export class ClickRetentionRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Deletes at most `limit` raw clicks of organizations on `tier` older than `cutoff`. */
  deleteClicksChunk(tier: Tier, cutoff: Date, limit: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM clicks WHERE id IN (
        SELECT c.id FROM clicks c
        JOIN organizations o ON o.id = c.organization_id AND o.tier = ${tier}::"Tier"
        WHERE c.clicked_at < ${cutoff}
        LIMIT ${limit})`;
  }

  /** Deletes at most `limit` daily visitor rows (they are raw history too) older than `cutoffDay`. */
  deleteDailyVisitorsChunk(tier: Tier, cutoffDay: string, limit: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM click_daily_visitors WHERE (link_id, day, visitor_hash) IN (
        SELECT v.link_id, v.day, v.visitor_hash FROM click_daily_visitors v
        JOIN organizations o ON o.id = v.organization_id AND o.tier = ${tier}::"Tier"
        WHERE v.day < ${cutoffDay}::date
        LIMIT ${limit})`;
  }
}

/**
 * Retention (decisions §5): deletes raw clicks, and the per-day visitor hashes
 * derived from them, older than the organization's plan keeps, in bounded chunks
 * (short transactions, no long locks). Rollups and link counters stay.
 */
@Injectable()
export class ClickRetentionService {
  private readonly logger = new Logger(ClickRetentionService.name);
  /** Per plan, with the PLAN_LIMITS overrides the API applies too. */
  private readonly retentionDays: Record<Tier, number>;

  constructor(
    private readonly repository: ClickRetentionRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const plans = parsePlanLimits(config.PLAN_LIMITS);
    this.retentionDays = Object.fromEntries(
      Object.entries(plans).map(([tier, limits]) => [tier, limits.rawClickRetentionDays]),
    ) as Record<Tier, number>;
  }

  async prune(now: Date, chunkSize = 5_000): Promise<PruneResult> {
    const result: PruneResult = { clicks: 0, dailyVisitors: 0 };
    for (const [tier, days] of Object.entries(this.retentionDays) as Array<[Tier, number]>) {
      const cutoff = new Date(now.getTime() - days * DAY_MS);
      for (;;) {
        const n = await this.repository.deleteClicksChunk(tier, cutoff, chunkSize);
        result.clicks += n;
        if (n < chunkSize) break;
      }
      // A visitor day is dropped once the whole day is past the cutoff.
      const cutoffDay = cutoff.toISOString().slice(0, 10);
      for (;;) {
        const n = await this.repository.deleteDailyVisitorsChunk(tier, cutoffDay, chunkSize);
        result.dailyVisitors += n;
        if (n < chunkSize) break;
      }
    }
    this.logger.log({ ...result, now: now.toISOString() }, 'raw click history pruned');
    return result;
  }
}
