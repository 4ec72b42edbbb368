import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';
import { LinkDestinations } from '../destinations';

/** A link as re-screening reads it: where it lives and its destinations. */
export interface RescreenRow extends LinkDestinations {
  id: string;
}

/** A link re-screening has just blocked. */
export interface BlockedLink {
  id: string;
  organizationId: string;
  projectId: string | null;
  domainName: string;
  shortCode: string;
  reason: string;
  blockedAt: Date;
}

export interface Recipient {
  email: string;
  name: string;
}

const DESTINATION_COLUMNS = `original_url AS "originalUrl", ios_url AS "iosUrl", android_url AS "androidUrl",
  web_fallback_url AS "webFallbackUrl", expired_url AS "expiredUrl", variants, redirect_rules AS "redirectRules"`;

const BLOCKED_COLUMNS = `l.id, l.organization_id AS "organizationId", l.project_id AS "projectId", l.domain_name AS "domainName",
  l.short_code AS "shortCode", l.safety_reason AS "reason", l.safety_checked_at AS "blockedAt"`;

/**
 * Re-screening's reads and writes on a small dedicated `pg` pool (decisions §22). They are
 * service-wide on purpose: a feed change concerns every organization's links, and each row
 * written names its own organization.
 */
@Injectable()
export class RescreenPg implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_URL, { max: 2 });
  }

  /** Active links not blocked yet, in id order after `after` (keyset paging on the primary key). */
  async page(after: string | null, limit: number): Promise<RescreenRow[]> {
    const { rows } = await this.pool.query<RescreenRow>(
      `SELECT id, ${DESTINATION_COLUMNS} FROM links
        WHERE is_active AND safety_status <> 'blocked' AND ($1::uuid IS NULL OR id > $1::uuid)
        ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return rows;
  }

  /** The links (any organization) whose screening no lookup has completed yet, oldest id first. */
  async unchecked(after: string | null, limit: number): Promise<RescreenRow[]> {
    const { rows } = await this.pool.query<RescreenRow>(
      `SELECT id, ${DESTINATION_COLUMNS} FROM links
        WHERE safety_checked_at IS NULL AND is_active AND safety_status <> 'blocked' AND ($1::uuid IS NULL OR id > $1::uuid)
        ORDER BY id LIMIT $2`,
      [after, limit],
    );
    return rows;
  }

  /** Marks links as fully screened now (a later lookup found nothing). */
  async markChecked(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.pool.query(`UPDATE links SET safety_checked_at = now() WHERE id = ANY($1::uuid[]) AND safety_checked_at IS NULL`, [ids]);
  }

  /** Blocks each link with its reason; answers only those this call blocked (not blocked already). */
  async block(hits: ReadonlyArray<{ id: string; reason: string }>): Promise<BlockedLink[]> {
    if (!hits.length) return [];
    const { rows } = await this.pool.query<BlockedLink>(
      `UPDATE links l SET safety_status = 'blocked', safety_reason = v.reason, safety_checked_at = now(), updated_at = now()
         FROM unnest($1::uuid[], $2::text[]) AS v(id, reason)
        WHERE l.id = v.id AND l.safety_status <> 'blocked'
        RETURNING ${BLOCKED_COLUMNS}`,
      [hits.map((h) => h.id), hits.map((h) => h.reason)],
    );
    return rows;
  }

  /** The organization's name and its Owners and Admins, who hear of a flagged link. */
  async contacts(organizationId: string): Promise<{ organization: string; recipients: Recipient[] } | null> {
    const { rows } = await this.pool.query<{ organization: string; email: string | null; name: string | null }>(
      `SELECT o.name AS organization, u.email, u.name FROM organizations o
         LEFT JOIN memberships m ON m.organization_id = o.id AND m.role IN ('OWNER', 'ADMIN')
         LEFT JOIN users u ON u.id = m.user_id
        WHERE o.id = $1::uuid ORDER BY m.created_at`,
      [organizationId],
    );
    if (!rows.length) return null;
    return { organization: rows[0].organization, recipients: rows.filter((r) => r.email).map((r) => ({ email: r.email!, name: r.name ?? '' })) };
  }

  async onModuleDestroy(): Promise<void> {
    await endPgPool(this.pool);
  }
}
