import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool, PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { clickTimeIso } from '@dl/platform/click-codec';
import { createPgPool, endPgPool } from '@dl/platform/db';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { EnrichedClick } from './enrich';
import { RollupRow, VisitorRow } from './rollups';

export interface ClickedLink {
  id: string;
  organizationId: string;
  shortCode: string;
  projectId: string | null;
  migrationMetadata: unknown;
}

/** A NUL (JSON `\u0000`, which Postgres cannot turn into text) as the raw byte, unless its backslash is itself escaped. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** The scratch space `utf8Bytes` writes into: kept between calls, and dropped back to this size after a larger batch. */
const SCRATCH_BYTES = 1 << 21;
let scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
let scratchInUse = false;

/** What `utf8Bytes` hands its writer: strings appended as UTF-8, and single bytes. */
export interface Utf8Out {
  text(value: string): void;
  byte(value: number): void;
}

/** Appends to the scratch space, which grows (doubling) when the next string might not fit. */
class Utf8Writer implements Utf8Out {
  private at = 0;

  text(value: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 unit (a surrogate pair's 4 bytes are 2 units).
    this.room(value.length * 3);
    this.at += scratch.write(value, this.at);
  }

  byte(value: number): void {
    this.room(1);
    scratch[this.at++] = value;
  }

  /** A copy of what was written, at its exact size. */
  bytes(): Buffer {
    const out = Buffer.allocUnsafe(this.at);
    scratch.copy(out, 0, 0, this.at);
    return out;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= scratch.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, this.at + bytes));
    scratch.copy(bigger, 0, 0, this.at);
    scratch = bigger;
  }
}

/**
 * What `write` writes, as UTF-8 bytes in one buffer of the exact size. Each string is written
 * as soon as it is made, into a scratch space the process keeps, and is garbage from then on:
 * collecting a batch's rows first (2,500 lines, a megabyte of strings alive until the last was
 * measured) kept them through the worker's scavenges, and measuring each with `byteLength` was
 * a second pass. A buffer per batch grown by doubling instead held 12-18 MB more at a
 * backlog's peak than one of the exact size (docs/performance.md, "A batch's rows are written
 * as they are made"). Synchronous: `write` may not call it again.
 */
export function utf8Bytes(write: (out: Utf8Out) => void): Buffer {
  if (scratchInUse) throw new Error('utf8Bytes is not reentrant');
  scratchInUse = true;
  try {
    const out = new Utf8Writer();
    write(out);
    return out.bytes();
  } finally {
    scratchInUse = false;
    // A batch of unusually long rows does not keep its scratch space for good.
    if (scratch.length > 2 * SCRATCH_BYTES) scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  }
}

/**
 * Rows as one `json` parameter: a JSON array in UTF-8, which node-postgres sends as a binary
 * parameter (a json value's binary form is its text). Each row is stringified on its own and
 * written at once (`utf8Bytes`): `JSON.stringify` of a whole batch returned a tree of string
 * parts that the driver flattened into one string (two bytes a character as soon as one city
 * name is outside Latin-1) before encoding it: three copies of a batch, a third of the worker's
 * allocation (docs/performance.md, "A batch's json parameter is written row by row").
 *
 * A NUL is sent as the raw byte, so Postgres refuses the batch as it refuses a NUL in any text
 * parameter (22021), and the bisect finds the click (decisions §14). Lone surrogates never get
 * here: enrichment makes text well formed, as the driver's UTF-8 encoding would.
 */
export function jsonBytes<T extends object>(rows: readonly T[], toRow?: (row: T) => object): Buffer {
  return utf8Bytes((out) => {
    out.byte(0x5b); // [
    for (let k = 0; k < rows.length; k++) {
      if (k) out.byte(0x2c); // ,
      const json = JSON.stringify(toRow ? toRow(rows[k]) : rows[k]);
      out.text(json.includes('\\u0000') ? json.replace(ESCAPED_NUL, '$1\0') : json);
    }
    out.byte(0x5d); // ]
  });
}

/** A click as `insertClicks`' json row: short keys, a null fact left out (json_to_recordset reads a missing key as NULL). */
function clickRow(c: EnrichedClick): object {
  return {
    i: c.id,
    o: c.organizationId,
    l: c.linkId,
    t: c.clickedAt,
    ip: c.ipAddress ?? undefined,
    ua: c.userAgent ?? undefined,
    r: c.referrer ?? undefined,
    rh: c.referrerHost ?? undefined,
    al: c.acceptLanguage ?? undefined,
    la: c.language ?? undefined,
    d: c.deviceType ?? undefined,
    p: c.platform ?? undefined,
    b: c.browser ?? undefined,
    bv: c.browserVersion ?? undefined,
    os: c.os ?? undefined,
    ov: c.osVersion ?? undefined,
    cc: c.countryCode ?? undefined,
    cn: c.countryName ?? undefined,
    rg: c.region ?? undefined,
    ci: c.city ?? undefined,
    tz: c.timezone ?? undefined,
    lat: c.latitude ?? undefined,
    lon: c.longitude ?? undefined,
    us: c.utmSource ?? undefined,
    um: c.utmMedium ?? undefined,
    uc: c.utmCampaign ?? undefined,
    ut: c.utmTerm ?? undefined,
    un: c.utmContent ?? undefined,
    bot: c.isBot,
    v: c.visitorHash,
    f: c.fingerprint ?? undefined,
    vi: c.variantIndex ?? undefined,
    ri: c.ruleIndex ?? undefined,
  };
}

/** The columns of `clicks` a click batch writes, in the order of clickRow's keys and clickCopyLine's fields. */
const CLICK_COLUMNS = `id, organization_id, link_id, clicked_at, ip_address, user_agent, referrer, referrer_host,
  accept_language, language, device_type, platform, browser, browser_version, os, os_version,
  country_code, country_name, region, city, timezone, latitude, longitude,
  utm_source, utm_medium, utm_campaign, utm_term, utm_content, is_bot, visitor_hash, fingerprint,
  variant_index, rule_index`;

const UNIQUE_VIOLATION = '23505';

/** The characters COPY's text format reads specially inside a value. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text value in COPY's text format: `\N` for null, a backslash, tab, newline or carriage return escaped. */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]) : value;
}

const copyNumber = (value: number | null): string => (value === null ? '\\N' : String(value));

/**
 * A click as a line of `COPY clicks (CLICK_COLUMNS) FROM STDIN`: its fields joined (one flat
 * string; a template literal of 66 parts built a tree of ~2 KB of string pieces a click, which
 * `write` then flattened).
 */
function clickCopyLine(c: EnrichedClick): string {
  const t = copyText;
  return [
    c.id, c.organizationId, c.linkId, clickTimeIso(c.clickedAt), t(c.ipAddress), t(c.userAgent),
    t(c.referrer), t(c.referrerHost), t(c.acceptLanguage), t(c.language), t(c.deviceType), t(c.platform),
    t(c.browser), t(c.browserVersion), t(c.os), t(c.osVersion), t(c.countryCode), t(c.countryName),
    t(c.region), t(c.city), t(c.timezone), copyNumber(c.latitude), copyNumber(c.longitude),
    t(c.utmSource), t(c.utmMedium), t(c.utmCampaign), t(c.utmTerm), t(c.utmContent), c.isBot ? 't' : 'f',
    t(c.visitorHash), t(c.fingerprint), copyNumber(c.variantIndex), `${copyNumber(c.ruleIndex)}\n`,
  ].join('\t');
}

/**
 * Rows as COPY's text-format data in UTF-8, one `line` each, written as they are made
 * (`utf8Bytes`). A NUL stays the raw byte, which Postgres refuses (22021) as in any text.
 */
export function copyBytes<T>(rows: readonly T[], line: (row: T) => string): Buffer {
  return utf8Bytes((out) => {
    for (let k = 0; k < rows.length; k++) out.text(line(rows[k]));
  });
}

/** Runs `COPY … FROM STDIN` with `data` on the transaction's connection; resolves once Postgres has taken it all. */
function copyFromBuffer(tx: ClickTx, sql: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = tx.query(copyFrom(sql));
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(data);
  });
}

/** A daily visitor as `insertDailyVisitors`' json row. */
const visitorRow = (r: VisitorRow): object => ({ o: r.organizationId, l: r.linkId, d: r.day, v: r.visitorHash });

/**
 * A batch's json parameter, built when the driver writes the statement rather than before:
 * node-postgres keeps a query's values until it completes, and a batch's JSON (megabytes) held
 * that long outlived two scavenges and piled up in V8's large-object space until a full
 * collection (36 MB at the peak of a 60,000-click backlog). Built at bind time it is garbage as
 * soon as the driver has copied it into the message. `toRow`, when given, maps each row as it is written.
 */
export function lazyJsonParam<T extends object>(rows: readonly T[], toRow?: (row: T) => object): { toPostgres(): Buffer } {
  return { toPostgres: () => jsonBytes(rows, toRow) };
}

/** Adds `value` to the set under `key`. */
export function addTo<K, V>(sets: Map<K, Set<V>>, key: K, value: V): void {
  const set = sets.get(key);
  if (set) set.add(value);
  else sets.set(key, new Set([value]));
}

/** A click batch's transaction: one connection of the pipeline's pool, inside BEGIN … COMMIT. */
export type ClickTx = Pick<PoolClient, 'query'>;

/**
 * SQL of the click pipeline's write side, on a small dedicated `pg` pool: the
 * hot path of the worker, where the ORM's per-parameter cost (tens of thousands
 * of array elements per batch) and its interactive-transaction round trips
 * showed in the drain rate. Each method is one multi-row statement (unnest of
 * arrays), run inside the batch's transaction. Rows of several organizations
 * share a batch; each row carries its organization id and links are matched on
 * (id, organization_id).
 */
@Injectable()
export class ClickIngestRepository implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_URL, { max: 4 });
  }

  onModuleDestroy(): Promise<void> {
    return endPgPool(this.pool);
  }

  /** Runs `fn` in one transaction; rolls back when it throws. */
  async transaction<T>(fn: (tx: ClickTx) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw err;
    } finally {
      client.release(broken);
    }
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
   * json parameter, and the worker less to write (docs/performance.md, "Click batches go in with
   * COPY"). A replay carries the same id and clickedAt, so it meets the (id, clicked_at) key of
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
        SELECT * FROM json_to_recordset($1::json) AS r(
          i uuid, o uuid, l uuid, t timestamptz, ip text, ua text, r text, rh text, al text, la text, d text, p text,
          b text, bv text, os text, ov text, cc text, cn text, rg text, ci text, tz text, lat float8, lon float8,
          us text, um text, uc text, ut text, un text, bot boolean, v text, f text, vi int2, ri int2)
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
