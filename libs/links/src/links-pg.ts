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

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_URL, { max: 4 });
  }

  /** List items `{id, shortCode, title, originalUrl, clickCount, templateSlug, createdAt}`, newest first. */
  async listJson(organizationId: string, projectId?: string): Promise<string> {
    const result = await this.pool.query<[string]>({
      text: `
        SELECT coalesce(json_agg(x), '[]')::text FROM (
          SELECT l.id, l.short_code AS "shortCode", l.title, l.original_url AS "originalUrl",
                 l.click_count AS "clickCount", t.slug AS "templateSlug",
                 to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
          FROM links l JOIN templates t ON t.id = l.template_id
          WHERE l.organization_id = $1::uuid ${projectId ? 'AND l.project_id = $2::uuid' : ''}
          ORDER BY l.created_at DESC, l.id DESC
        ) x`,
      values: projectId ? [organizationId, projectId] : [organizationId],
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
