import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Pool, PoolClient } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool, inTransaction } from '@dl/platform/db';
import { CUBE_COLUMNS, cubeCopyBytes, CubeRecord } from './click-cube';
import { CLICK_COLUMNS, CLICK_ROW_TYPE, clickCopyLine, clickRow, visitorRow } from './click-rows';
import { EnrichedClick } from './enrich';
import { copyBytes, copyFromBuffer, lazyJsonParam } from './pg-encoding';
import { RollupRow, VisitorRow } from './rollups';

export interface ClickedLink {
  id: string;
  organizationId: string;
  shortCode: string;
  projectId: string | null;
  migrationMetadata: unknown;
}

/** Adds `value` to the set under `key`. */
export function addTo<K, V>(sets: Map<K, Set<V>>, key: K, value: V): void {
  const set = sets.get(key);
  if (set) set.add(value);
  else sets.set(key, new Set([value]));
}

/** A click batch's transaction: one connection of the pipeline's pool, inside BEGIN … COMMIT. */
export type ClickTx = Pick<PoolClient, 'query'>;

const UNIQUE_VIOLATION = '23505';

/**
 * SQL of the click pipeline's write side, on a small dedicated `pg` pool: the hot path of the
 * worker, where the ORM's per-parameter cost (tens of thousands of values per batch) and its
 * interactive-transaction round trips would bound the drain rate. Each method is one multi-row
 * statement, run inside the batch's transaction. Rows of several organizations share a batch;
 * each row carries its organization id and links are matched on (id, organization_id).
 */
@Injectable()
export class ClickWriteRepository implements OnApplicationShutdown {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_URL, { max: 4 });
  }

  /** After every module's destroy hook: the pipeline's last batch (ClickPipeline.onModuleDestroy) still has the pool. */
  onApplicationShutdown(): Promise<void> {
    return endPgPool(this.pool);
  }

  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: ClickTx) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, fn);
  }

  /**
   * Of the organizations claimed for each link, those the link really belongs to (link id →
   * organization ids; a link missing from the map does not exist), locked against a concurrent
   * delete for the rest of the transaction (a click of a deleted link is dropped, never left
   * orphaned). Ids compare as Postgres writes them (lowercase).
   */
  async existingLinks(tx: ClickTx, claimed: ReadonlyMap<string, ReadonlySet<string>>): Promise<Map<string, Set<string>>> {
    const linkIds: string[] = [];
    const organizationIds: string[] = [];
    for (const [linkId, organizations] of claimed) {
      for (const organizationId of organizations) {
        linkIds.push(linkId);
        organizationIds.push(organizationId);
      }
    }
    const existing = new Map<string, Set<string>>();
    if (!linkIds.length) return existing;
    const { rows } = await tx.query<{ id: string; organization_id: string }>(
      `SELECT l.id::text AS id, l.organization_id::text AS organization_id
       FROM links l
       JOIN unnest($1::uuid[], $2::uuid[]) AS p(link_id, organization_id)
         ON l.id = p.link_id AND l.organization_id = p.organization_id
       ORDER BY l.id
       FOR KEY SHARE OF l`,
      [linkIds, organizationIds],
    );
    for (const r of rows) addTo(existing, r.id, r.organization_id);
    return existing;
  }

  /**
   * Inserts the clicks; returns those actually inserted. The usual batch is all new and goes in
   * with COPY, which costs Postgres about a third less than an INSERT of the same rows from a
   * json parameter, and the worker less to write. A replay carries the same id and clickedAt, so it meets the (id, clicked_at) key of
   * `clicks` (partitioned by month): the COPY fails with a unique violation, is rolled back to its
   * savepoint, and the batch goes in with the INSERT that skips stored clicks. Any other error
   * (a click Postgres refuses, such as one with a NUL) fails the statement as the INSERT would,
   * for the caller's bisect.
   */
  async insertClicks(tx: ClickTx, clicks: EnrichedClick[]): Promise<EnrichedClick[]> {
    if (!clicks.length) return [];
    await tx.query('SAVEPOINT click_copy');
    try {
      await copyFromBuffer(tx, `COPY clicks (${CLICK_COLUMNS}) FROM STDIN`, copyBytes(clicks, clickCopyLine));
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      await tx.query('ROLLBACK TO SAVEPOINT click_copy');
      return this.insertClicksSkippingStored(tx, clicks);
    }
    await tx.query('RELEASE SAVEPOINT click_copy');
    return clicks;
  }

  /**
   * insertClicks for a batch with stored clicks among it (a replay): ON CONFLICT skips them. The
   * statement answers one row, the count and the ids it inserted.
   */
  private async insertClicksSkippingStored(tx: ClickTx, clicks: EnrichedClick[]): Promise<EnrichedClick[]> {
    // The batch as one json parameter, each click under short keys and without its null facts
    // (a missing key is NULL).
    const { rows } = await tx.query<{ n: number; ids: string[] | null }>(
      `WITH inserted AS (
        INSERT INTO clicks (${CLICK_COLUMNS})
        SELECT * FROM json_to_recordset($1::json) AS r(${CLICK_ROW_TYPE})
        ON CONFLICT (id, clicked_at) DO NOTHING
        RETURNING id)
      SELECT count(*)::int AS n, array_agg(id::text) AS ids FROM inserted`,
      [lazyJsonParam(clicks, clickRow)],
    );
    const inserted = new Set(rows[0].ids ?? []);
    return clicks.filter((c) => inserted.has(c.id));
  }

  /**
   * Records daily visitors; returns the (link, day, visitor) rows seen for the first time. As
   * insertClicks, one row back: the count, and the new rows' keys only when some row was not new.
   */
  async insertDailyVisitors(tx: ClickTx, rows: VisitorRow[]): Promise<VisitorRow[]> {
    if (!rows.length) return [];
    const { rows: answer } = await tx.query<{ n: number; keys: string[] | null }>(
      `WITH inserted AS (
        INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash)
        SELECT * FROM json_to_recordset($1::json) AS r(o uuid, l uuid, d date, v text)
        ON CONFLICT (link_id, day, visitor_hash) DO NOTHING
        RETURNING link_id, day, visitor_hash)
      SELECT count(*)::int AS n,
        CASE WHEN count(*) < $2 THEN array_agg(link_id::text || '|' || to_char(day, 'YYYY-MM-DD') || '|' || visitor_hash) END AS keys
      FROM inserted`,
      // As insertClicks' rows: four text arrays cost the driver an escaping pass per element.
      [lazyJsonParam(rows, visitorRow), rows.length],
    );
    const { n, keys } = answer[0];
    if (n === rows.length) return rows;
    const seen = new Set(keys ?? []);
    return rows.filter((r) => seen.has(`${r.linkId}|${r.day}|${r.visitorHash}`));
  }

  /** Adds the batch's counts to the daily rollups (rows pre-aggregated and sorted). */
  async upsertRollups(tx: ClickTx, rows: RollupRow[]): Promise<void> {
    if (!rows.length) return;
    await tx.query(
      `INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
       SELECT * FROM json_to_recordset($1::json)
         AS r("organizationId" uuid, "linkId" uuid, day date, dimension text, value text, clicks int)
       ON CONFLICT (link_id, day, dimension, value) DO UPDATE SET clicks = click_rollups.clicks + EXCLUDED.clicks`,
      [lazyJsonParam(rows)],
    );
  }

  /**
   * The first cube hour the daily roll-up does not hold (click_cube_state.rolled_before), read
   * after a shared lock held to COMMIT: a roll-up (rollCube) waits for this batch, and this batch
   * for a roll-up under way, so no cube row of an hour being rolled is missed.
   */
  async cubeRolledBefore(tx: ClickTx): Promise<Date> {
    const { rows } = await tx.query<{ w: Date }>('SELECT dl_cube_rolled_before() AS w');
    return rows[0].w;
  }

  /**
   * Appends a cube row per inserted click (no key to conflict on: readers sum); `newVisitors` mark
   * first daily visits. Rows of hours before `rolledBefore` (late clicks) are added to the daily
   * roll-up too, in this transaction.
   */
  async insertCube(tx: ClickTx, clicks: EnrichedClick[], newVisitors: VisitorRow[], rolledBefore: Date): Promise<void> {
    if (!clicks.length) return;
    const late: CubeRecord[] = [];
    await copyFromBuffer(tx, `COPY click_cube (${CUBE_COLUMNS}) FROM STDIN`, cubeCopyBytes(clicks, newVisitors, rolledBefore.getTime(), late));
    if (late.length) await tx.query('SELECT dl_cube_daily_add($1::json)', [lazyJsonParam(late)]);
  }

  /**
   * Adds the cube's hours before `upTo` (a whole hour) to the daily roll-up, in its own transaction
   * under the exclusive lock that click batches take shared (dl_cube_roll); returns rolled_before.
   */
  async rollCube(upTo: Date): Promise<Date> {
    const { rows } = await this.pool.query<{ w: Date }>('SELECT dl_cube_roll($1::timestamptz) AS w', [upTo.toISOString()]);
    return rows[0].w;
  }

  /** Adds non-bot clicks to the links' counters; returns what a `link.clicked` event needs. */
  async incrementLinkCounts(tx: ClickTx, counts: Array<{ linkId: string; clicks: number }>): Promise<ClickedLink[]> {
    if (!counts.length) return [];
    // Row locks taken in id order first: the UPDATE's own order is the planner's choice, and
    // concurrent batches (the consumer runs several) locking shared links in different
    // orders would deadlock.
    await tx.query(`SELECT 1 FROM links WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`, [counts.map((c) => c.linkId)]);
    const { rows } = await tx.query<{
      id: string;
      organization_id: string;
      short_code: string;
      project_id: string | null;
      migration_metadata: unknown;
    }>(
      `UPDATE links l SET click_count = l.click_count + d.n
       FROM unnest($1::uuid[], $2::int[]) AS d(id, n)
       WHERE l.id = d.id
       RETURNING l.id::text AS id, l.organization_id::text AS organization_id, l.short_code, l.project_id::text AS project_id, l.migration_metadata`,
      [counts.map((c) => c.linkId), counts.map((c) => c.clicks)],
    );
    return rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      shortCode: r.short_code,
      projectId: r.project_id,
      migrationMetadata: r.migration_metadata,
    }));
  }

  /** Of these organizations, those with an active webhook subscribed to `event`. */
  async organizationsWithWebhook(organizationIds: string[], event: string): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const { rows } = await this.pool.query<{ organization_id: string }>(
      `SELECT DISTINCT organization_id::text AS organization_id FROM webhooks
       WHERE organization_id = ANY($1::uuid[]) AND is_active AND $2 = ANY(events)`,
      [organizationIds, event],
    );
    return new Set(rows.map((r) => r.organization_id));
  }
}
