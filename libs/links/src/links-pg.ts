import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, createReadPool, endPgPool } from '@dl/platform/db';
import { encodeListCursor, LinkListFilter, LinkListPage, likeSubstring } from './link-list';

/**
 * What an organization's links and templates are at a snapshot: how many rows and the sum of a
 * 64-bit hash of each row version's `xmin`. Every insert, update (an edit, the worker's click
 * count, a project's deletion) and delete makes or removes a row version, and a new version's
 * transaction id differs from the one it replaces, so any change moves the sum; hashing makes
 * two changes cancelling out a 2^-64 coincidence (a plain sum of ids could cancel when
 * transactions commit out of id order). Freezing moves it too, which only costs a rebuild.
 * It reads the organization's rows but builds nothing, so it costs a fraction of a rebuild.
 */
const VERSION_EXPR = `
  (SELECT count(*) || ':' || coalesce(sum(hashint8extended(xmin::text::bigint, 0)), 0) FROM links WHERE organization_id = $1::uuid)
  || '/' || (SELECT count(*) || ':' || coalesce(sum(hashint8extended(xmin::text::bigint, 0)), 0) FROM templates WHERE organization_id = $1::uuid)`;

/** Whole lists smaller than this are rebuilt every time (cheap); larger ones are kept. */
const LIST_CACHE_MIN_CHARS = 256 * 1024;
/** At most this many characters of kept lists per process (oldest dropped first). */
const LIST_CACHE_MAX_CHARS = 64 * 1024 * 1024;

/**
 * The links hot paths on a small dedicated `pg` pool (the ORM's per-query cost
 * dominates these): `GET /api/links`, where Postgres builds the whole JSON array
 * (rows in index order, one text value; no per-row objects in Node, so 25,000 or
 * 100,000 links cost one string), and the single-statement insert of new links
 * outside a transaction. Used only by LinksRepository; scoped by organization.
 *
 * A large whole list (no filter, no page) is kept with the version (VERSION_EXPR) it was
 * built at, in the same statement's snapshot; the next request asks for the version and
 * answers the kept text when it is unchanged, so an answer is never older than its request.
 */
@Injectable()
export class LinksPg implements OnModuleDestroy {
  private readonly pool: Pool;
  /** The list's pool: the replica (DATABASE_READ_URL, the primary while it is down), else `pool`. */
  private readonly readPool: Pool;

  private readonly base: string;
  private readonly host: string;

  /** Whole lists by organization, with the version each was built at (see VERSION_EXPR). */
  private readonly kept = new Map<string, { version: string; json: string }>();
  private keptChars = 0;
  /** Lists at least this long are kept (tests lower it). */
  listCacheMinChars = LIST_CACHE_MIN_CHARS;
  /** Whole lists answered from `kept` (tests, metrics). */
  listCacheHits = 0;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_URL, { max: 4 });
    this.readPool = config.DATABASE_READ_URL ? createReadPool(config.DATABASE_READ_URL, this.pool, 4) : this.pool;
    this.base = config.SHORT_LINK_BASE_URL.replace(/\/+$/, '');
    this.host = new URL(config.SHORT_LINK_BASE_URL).host;
  }

  /**
   * List items `{id, domain, shortCode, shortUrl, title, originalUrl, clickCount, templateSlug, createdAt}`,
   * newest first (`domain`/`shortUrl` as in reads: the branded domain, else the service host),
   * narrowed by the filters (decisions §16; each one has an index, see docs/performance.md).
   * With `limit` one page and the cursor of its last item when more match (keyset on
   * `(created_at, id)`, so a page costs the same at any depth).
   */
  async listPage(organizationId: string, filter: LinkListFilter = {}): Promise<LinkListPage> {
    if (isWholeList(filter)) return { json: await this.wholeList(organizationId), nextCursor: null };
    const { text, values } = this.listStatement(organizationId, filter);
    const result = await this.readPool.query<[string, string | null, string | null]>({ text, values, rowMode: 'array' });
    const [json, lastAt, lastId] = result.rows[0];
    return { json, nextCursor: filter.limit && lastAt && lastId ? encodeListCursor(lastAt, lastId) : null };
  }

  /** Every link of the organization: the kept text while its version holds, else built (with its version). */
  private async wholeList(organizationId: string): Promise<string> {
    const hit = this.kept.get(organizationId);
    if (hit) {
      const now = await this.readPool.query<[string]>({ text: `SELECT ${VERSION_EXPR}`, values: [organizationId], rowMode: 'array' });
      if (now.rows[0][0] === hit.version) {
        this.listCacheHits++;
        return hit.json;
      }
      this.forget(organizationId);
    }
    const { text, values } = this.listStatement(organizationId, {}, true);
    const result = await this.readPool.query<[string, string, null]>({ text, values, rowMode: 'array' });
    const [json, version] = result.rows[0];
    if (json.length >= this.listCacheMinChars && json.length <= LIST_CACHE_MAX_CHARS) {
      this.kept.set(organizationId, { version, json });
      this.keptChars += json.length;
      for (const [org] of this.kept) {
        if (this.keptChars <= LIST_CACHE_MAX_CHARS) break;
        this.forget(org);
      }
    }
    return json;
  }

  private forget(organizationId: string): void {
    const entry = this.kept.get(organizationId);
    if (!entry) return;
    this.keptChars -= entry.json.length;
    this.kept.delete(organizationId);
  }

  /**
   * The list statement (bench/links-list-filters.ts EXPLAINs it): one row of the JSON array
   * text and, with `limit`, the creation time and id of the page's last item when more match.
   */
  listStatement(organizationId: string, filter: LinkListFilter = {}, version = false): { text: string; values: unknown[] } {
    const values: unknown[] = [organizationId, this.base, this.host];
    const param = (v: unknown): string => {
      values.push(v);
      return `$${values.length}`;
    };
    const where = ['l.organization_id = $1::uuid'];
    if (filter.projectId) where.push(`l.project_id = ${param(filter.projectId)}::uuid`);
    if (filter.domainName !== undefined) where.push(`l.domain_name = ${param(filter.domainName)}`);
    if (filter.isActive !== undefined) where.push(`l.is_active = ${param(filter.isActive)}::boolean`);
    if (filter.tags?.length) where.push(`dl_lower_tags(l.tags) && ${param(filter.tags.map((t) => t.toLowerCase()))}::text[]`);
    if (filter.search) {
      // The very expression of links_search_trgm_idx, so a term of 3+ characters uses it.
      where.push(`lower(coalesce(l.title, '') || E'\\n' || l.short_code || E'\\n' || l.original_url) LIKE ${param(likeSubstring(filter.search))}`);
    }
    if (filter.cursor) {
      const at = param(filter.cursor.createdAt);
      // The plain bound lets the (organization_id, created_at) indexes start at the cursor.
      where.push(`l.created_at <= ${at}::timestamptz AND (l.created_at, l.id) < (${at}::timestamptz, ${param(filter.cursor.id)}::uuid)`);
    }
    const items = `
          SELECT l.id,
                 CASE WHEN l.domain_name = '' THEN $3::text ELSE l.domain_name END AS "domain",
                 l.short_code AS "shortCode",
                 CASE WHEN l.domain_name = '' THEN $2::text || '/' || l.short_code
                      ELSE 'https://' || l.domain_name || '/' || l.short_code END AS "shortUrl",
                 l.title, l.original_url AS "originalUrl",
                 l.click_count AS "clickCount", t.slug AS "templateSlug",
                 json_build_object('status', l.safety_status, 'reason', l.safety_reason,
                   'checkedAt', to_char(l.safety_checked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) AS "safety",
                 to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;
    const from = `
          FROM links l JOIN templates t ON t.id = l.template_id
          WHERE ${where.join(' AND ')}
          ORDER BY l.created_at DESC, l.id DESC`;
    if (!filter.limit) {
      // Every match: Postgres builds the whole array as one text value.
      return { text: `SELECT coalesce(json_agg(x), '[]')::text, ${version ? VERSION_EXPR : 'NULL'}, NULL FROM (${items} ${from}) x`, values };
    }
    // One row more than the page tells whether another page follows.
    const limit = Number(filter.limit);
    const text = `
        WITH p AS MATERIALIZED (
          ${items}, l.created_at AS at, row_number() OVER (ORDER BY l.created_at DESC, l.id DESC) AS n
          ${from}
          LIMIT ${param(limit + 1)}::int
        )
        SELECT (SELECT coalesce(json_agg(x), '[]')::text FROM (
                  SELECT id, "domain", "shortCode", "shortUrl", title, "originalUrl", "clickCount", "templateSlug", "safety", "createdAt"
                  FROM p WHERE n <= ${limit} ORDER BY n) x),
               (SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') FROM p WHERE n = ${limit}),
               (SELECT id::text FROM p WHERE n = ${limit} AND EXISTS (SELECT 1 FROM p WHERE n > ${limit}))`;
    return { text, values };
  }

  /** The organization's tags with how many links carry each (case-insensitive; the most used spelling names it). */
  async tagsJson(organizationId: string): Promise<string> {
    const result = await this.readPool.query<[string]>({
      text: `
        SELECT json_build_object('tags', coalesce(json_agg(json_build_object('name', name, 'count', count) ORDER BY count DESC, key), '[]'))::text
        FROM (
          SELECT lower(tag) AS key, mode() WITHIN GROUP (ORDER BY tag) AS name, count(*)::int AS count
          FROM links l, unnest(l.tags) AS tag
          WHERE l.organization_id = $1::uuid AND cardinality(l.tags) > 0
          GROUP BY lower(tag)
        ) g`,
      values: [organizationId],
      rowMode: 'array',
    });
    return result.rows[0][0];
  }

  /**
   * Runs one statement (see LinksRepository.insertLinks). With `name` it is prepared once per
   * connection and then only bound and executed: Postgres skips parsing and planning the
   * insert on every create.
   */
  async query<T extends object>(text: string, values: unknown[], name?: string): Promise<T[]> {
    return (await this.pool.query<T>(name ? { name, text, values } : { text, values })).rows;
  }

  async onModuleDestroy(): Promise<void> {
    this.kept.clear();
    if (this.readPool !== this.pool) await endPgPool(this.readPool);
    await endPgPool(this.pool);
  }
}

/** No filter and no page: every link of the organization (the list that is worth keeping). */
function isWholeList(f: LinkListFilter): boolean {
  return (
    f.projectId === undefined && f.search === undefined && !f.tags?.length && f.domainName === undefined &&
    f.isActive === undefined && !f.limit && f.cursor === undefined
  );
}
