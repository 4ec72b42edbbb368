import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';
import { RedirectLinkSnapshot, SNAPSHOT_COLUMNS, SnapshotRow, toRedirectSnapshot } from './redirect-link';

const LINK_BY_CODE = `SELECT ${SNAPSHOT_COLUMNS.join(', ')} FROM links WHERE short_code = $1`;

const PIXEL_SITE_OF_ORG = 'SELECT 1 FROM pixel_sites WHERE organization_id = $1::uuid LIMIT 1';

/**
 * The edge's only Postgres reads, on a small `pg` pool of its own (cache misses only: a hot
 * link never reaches it). The redirect process does not run Prisma queries: its query
 * compiler and the links library cost ~100 MB of resident memory for these two statements.
 */
@Injectable()
export class RedirectStore implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Postgres unreachable: the miss fails (503 page) instead of waiting for a connection forever.
    this.pool = createPgPool(config.DATABASE_URL, { max: 4, connectionTimeoutMillis: 2_000 });
  }

  /** The link of a short code (the code space is global, so the read is not tenant-scoped), or null. */
  async findLink(shortCode: string): Promise<RedirectLinkSnapshot | null> {
    const { rows } = await this.pool.query<SnapshotRow>({ name: 'redirect-link-by-code', text: LINK_BY_CODE, values: [shortCode] });
    return rows[0] ? toRedirectSnapshot(rows[0]) : null;
  }

  /** Non-bot clicks of a link (rebuilds a lost click-cap counter; a cold path). */
  async countHumanClicks(linkId: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>({
      name: 'redirect-human-clicks',
      text: 'SELECT count(*) AS n FROM clicks WHERE link_id = $1::uuid AND NOT is_bot',
      values: [linkId],
    });
    return Number(rows[0].n);
  }

  /** Does the organization have a pixel site (then web destinations carry `dl_click`)? */
  async hasPixelSite(organizationId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({ name: 'redirect-pixel-site', text: PIXEL_SITE_OF_ORG, values: [organizationId] });
    return (rowCount ?? 0) > 0;
  }

  /** `SELECT 1` for /health. */
  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async onModuleDestroy(): Promise<void> {
    await endPgPool(this.pool).catch(() => undefined);
  }
}
