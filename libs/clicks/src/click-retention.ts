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
  /** Raw clicks deleted row by row (plans keeping less than the longest retention, the default partition). */
  clicks: number;
  dailyVisitors: number;
  /** Monthly partitions of `clicks` dropped whole: every click in them is past every plan's retention. */
  partitionsDropped: string[];
}

/**
 * On the primary's `pg` pool (PrismaService.pool), not through the ORM: the first ORM query of
 * a process loads Prisma's query compiler (about 45 MB resident), and a worker that only drains
 * clicks and runs these maintenance jobs never needs it.
 */
@Injectable()
export class ClickRetentionRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The monthly partitions of `clicks` (`clicks_pYYYYMM`) with the first day of their month, oldest first. */
  async monthlyPartitions(): Promise<Array<{ name: string; month: string }>> {
    const { rows } = await this.prisma.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'clicks'::regclass AND c.relname ~ '^clicks_p[0-9]{6}$' ORDER BY c.relname`,
    );
    return rows.map((r) => ({ name: r.name, month: `${r.name.slice(8, 12)}-${r.name.slice(12, 14)}-01` }));
  }

  /** Creates the partition of `month`'s UTC month (moving its rows out of the default partition); false when it exists. */
  async ensurePartition(month: string): Promise<boolean> {
    const { rows } = await this.prisma.pool.query<{ created: boolean }>(`SELECT dl_clicks_ensure_partition($1::date) AS created`, [month]);
    return rows[0].created;
  }

  /**
   * Drops one monthly partition: instant, no dead rows left to vacuum. It takes a short
   * exclusive lock on `clicks`; waiting more than 5 s for it (a long analytics read) fails the
   * job, which is retried, rather than queueing every click insert behind it.
   */
  async dropPartition(name: string): Promise<void> {
    if (!/^clicks_p[0-9]{6}$/.test(name)) throw new Error(`not a monthly clicks partition: ${name}`);
    const client = await this.prisma.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL lock_timeout = '5s'`);
      await client.query(`DROP TABLE "${name}"`);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Deletes at most `limit` raw clicks of organizations on `tier` older than `cutoff` (by the
   * full key, so each row is found in its own partition; only partitions before the cutoff are read).
   */
  async deleteClicksChunk(tier: Tier, cutoff: Date, limit: number): Promise<number> {
    const { rowCount } = await this.prisma.pool.query(
      `DELETE FROM clicks WHERE (id, clicked_at) IN (
        SELECT c.id, c.clicked_at FROM clicks c
        JOIN organizations o ON o.id = c.organization_id AND o.tier = $1::"Tier"
        WHERE c.clicked_at < $2::timestamptz
        LIMIT $3::int)`,
      [tier, cutoff.toISOString(), limit],
    );
    return rowCount ?? 0;
  }

  /** Deletes at most `limit` daily visitor rows (they are raw history too) older than `cutoffDay`. */
  async deleteDailyVisitorsChunk(tier: Tier, cutoffDay: string, limit: number): Promise<number> {
    const { rowCount } = await this.prisma.pool.query(
      `DELETE FROM click_daily_visitors WHERE (link_id, day, visitor_hash) IN (
        SELECT v.link_id, v.day, v.visitor_hash FROM click_daily_visitors v
        JOIN organizations o ON o.id = v.organization_id AND o.tier = $1::"Tier"
        WHERE v.day < $2::date
        LIMIT $3::int)`,
      [tier, cutoffDay, limit],
    );
    return rowCount ?? 0;
  }
}

/** Monthly partitions kept ready ahead of the current month (the default partition catches anything beyond). */
export const CLICK_PARTITIONS_AHEAD_MONTHS = 3;

/**
 * Creates the monthly partitions of `clicks` from `now`'s month to CLICK_PARTITIONS_AHEAD_MONTHS
 * ahead (the `clicks.partitions` job, daily): inserts never land in the default partition in
 * normal operation, and a month that did collect rows there is moved out when created.
 */
@Injectable()
export class ClickPartitionsService {
  private readonly logger = new Logger(ClickPartitionsService.name);

  constructor(private readonly repository: ClickRetentionRepository) {}

  async ensureAhead(now: Date, ahead = CLICK_PARTITIONS_AHEAD_MONTHS): Promise<{ created: string[] }> {
    const created: string[] = [];
    for (let i = 0; i <= ahead; i++) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1)).toISOString().slice(0, 10);
      if (await this.repository.ensurePartition(month)) created.push(`clicks_p${month.slice(0, 4)}${month.slice(5, 7)}`);
    }
    if (created.length) this.logger.log({ created }, 'clicks partitions created');
    return { created };
  }
}

/**
 * Retention (decisions §5): drops the monthly partitions past every plan's retention, deletes raw clicks, and the per-day visitor hashes
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
    const result: PruneResult = { clicks: 0, dailyVisitors: 0, partitionsDropped: [] };
    // A month's partition goes whole once its last instant is past the longest retention of
    // any plan; what the shorter plans no longer keep is deleted row by row below (the
    // deletes read only the partitions before their cutoff).
    const longest = Math.max(...Object.values(this.retentionDays));
    const horizon = now.getTime() - longest * DAY_MS;
    for (const part of await this.repository.monthlyPartitions()) {
      const start = new Date(`${part.month}T00:00:00Z`);
      const end = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
      if (end > horizon) break;
      await this.repository.dropPartition(part.name);
      result.partitionsDropped.push(part.name);
    }
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
