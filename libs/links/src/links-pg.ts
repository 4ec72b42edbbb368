import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';

/**
 * The links hot paths on a small dedicated `pg` pool (the ORM's per-query cost
 * dominates these): `GET /api/links`, where Postgres builds the whole JSON array
 * (rows in index order, one text value; no per-row objects in Node, so 25,000 or
 * 100,000 links cost one string), and the single-statement insert of new links
 * outside a transaction. Used only by LinksRepository; scoped by organization.
 */
@Injectable()
export class LinksPg implements OnModuleDestroy {
  private readonly pool: Pool;

  private readonly base: string;
  private readonly host: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_URL, { max: 4 });
    this.base = config.SHORT_LINK_BASE_URL.replace(/\/+$/, '');
    this.host = new URL(config.SHORT_LINK_BASE_URL).host;
  }

  /**
   * List items `{id, domain, shortCode, shortUrl, title, originalUrl, clickCount, templateSlug, createdAt}`,
   * newest first (`domain`/`shortUrl` as in reads: the branded domain, else the service host).
   */
  async listJson(organizationId: string, projectId?: string): Promise<string> {
    const n = projectId ? 3 : 2;
    const result = await this.pool.query<[string]>({
      text: `
        SELECT coalesce(json_agg(x), '[]')::text FROM (
          SELECT l.id,
                 CASE WHEN l.domain_name = '' THEN $${n + 1}::text ELSE l.domain_name END AS "domain",
                 l.short_code AS "shortCode",
                 CASE WHEN l.domain_name = '' THEN $${n}::text || '/' || l.short_code
                      ELSE 'https://' || l.domain_name || '/' || l.short_code END AS "shortUrl",
                 l.title, l.original_url AS "originalUrl",
                 l.click_count AS "clickCount", t.slug AS "templateSlug",
                 to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
          FROM links l JOIN templates t ON t.id = l.template_id
          WHERE l.organization_id = $1::uuid ${projectId ? 'AND l.project_id = $2::uuid' : ''}
          ORDER BY l.created_at DESC, l.id DESC
        ) x`,
      values: projectId ? [organizationId, projectId, this.base, this.host] : [organizationId, this.base, this.host],
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

  onModuleDestroy(): Promise<void> {
    return endPgPool(this.pool);
  }
}
