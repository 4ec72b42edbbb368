import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';

/** The longest attribution window a link can have (hours): bounds every scan. */
export const MAX_ATTRIBUTION_WINDOW_HOURS = 2160;
/** Fingerprint candidates read per install: enough to detect an ambiguous match. */
export const FINGERPRINT_CANDIDATES = 10;

export interface CandidateClick {
  clickId: string;
  linkId: string;
  clickedAt: Date;
  shortCode: string;
  deepLinkPath: string | null;
  deepLinkParameters: Record<string, unknown> | null;
}

export interface StoredInstall {
  linkId: string | null;
  clickId: string | null;
  matchType: string | null;
  ambiguous: boolean;
  shortCode: string | null;
  deepLinkPath: string | null;
  deepLinkParameters: Record<string, unknown> | null;
}

export interface AttributionReads {
  /** The install as already stored by the worker (idempotency beyond the Redis copy). */
  stored: StoredInstall | null;
  /** The click of `clickId` in this organization, within its link's window. */
  byClick: CandidateClick | null;
  /** The most recent human clicks with the fingerprint, each within its link's window, newest first. */
  candidates: CandidateClick[];
}

interface Row {
  kind: 'stored' | 'click' | 'fingerprint';
  click_id: string | null;
  link_id: string | null;
  clicked_at: Date | null;
  match_type: string | null;
  ambiguous: boolean | null;
  short_code: string | null;
  deep_link_path: string | null;
  deep_link_parameters: Record<string, unknown> | null;
}

/**
 * Every read of an install decision in ONE round trip, as a prepared statement: the stored
 * install (installs (app_id, install_id) unique index), the click by id (primary key) and the
 * fingerprint candidates ((organization_id, fingerprint, clicked_at desc) index of `clicks`).
 */
const LOOKUP_SQL = `
  WITH stored AS (
    SELECT 'stored'::text AS kind, i.click_id, i.link_id, NULL::timestamptz AS clicked_at, i.match_type, i.ambiguous,
           l.short_code, l.deep_link_path, l.deep_link_parameters
    FROM installs i LEFT JOIN links l ON l.id = i.link_id AND l.organization_id = i.organization_id
    WHERE i.organization_id = $1 AND i.app_id = $2 AND i.install_id = $3
  ), by_click AS (
    SELECT 'click'::text AS kind, c.id, c.link_id, c.clicked_at, NULL::text, NULL::boolean,
           l.short_code, l.deep_link_path, l.deep_link_parameters
    FROM clicks c JOIN links l ON l.id = c.link_id AND l.organization_id = c.organization_id
    WHERE c.id = $4 AND c.organization_id = $1
      AND c.clicked_at <= $6 AND c.clicked_at >= $6::timestamptz - make_interval(hours => l.attribution_window_hours)
  ), by_fingerprint AS (
    SELECT 'fingerprint'::text AS kind, c.id, c.link_id, c.clicked_at, NULL::text, NULL::boolean,
           l.short_code, l.deep_link_path, l.deep_link_parameters
    FROM clicks c JOIN links l ON l.id = c.link_id AND l.organization_id = c.organization_id
    WHERE c.organization_id = $1 AND c.fingerprint = $5
      AND c.clicked_at <= $6
      AND c.clicked_at >= $6::timestamptz - make_interval(hours => ${MAX_ATTRIBUTION_WINDOW_HOURS})
      AND c.clicked_at >= $6::timestamptz - make_interval(hours => l.attribution_window_hours)
      AND NOT c.is_bot
    ORDER BY c.clicked_at DESC, c.id DESC
    LIMIT ${FINGERPRINT_CANDIDATES}
  )
  SELECT * FROM stored UNION ALL SELECT * FROM by_click UNION ALL SELECT * FROM by_fingerprint`;

const toCandidate = (r: Row): CandidateClick => ({
  clickId: r.click_id as string,
  linkId: r.link_id as string,
  clickedAt: r.clicked_at as Date,
  shortCode: r.short_code as string,
  deepLinkPath: r.deep_link_path,
  deepLinkParameters: r.deep_link_parameters,
});

/**
 * Reads of the install attribution hot path (indexed, never a write). It has its own small
 * `pg` pool and a prepared statement: one round trip and no ORM work per install, which is what
 * keeps the synchronous answer inside its 50 ms p99 budget.
 */
@Injectable()
export class AttributionRepository implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_URL, { max: 8 });
  }

  async lookup(
    organizationId: string,
    appId: string,
    installId: string,
    clickId: string | null,
    fingerprint: string | null,
    now: Date,
  ): Promise<AttributionReads> {
    const { rows } = await this.pool.query<Row>({
      name: 'dl_install_attribution_lookup',
      text: LOOKUP_SQL,
      values: [organizationId, appId, installId, clickId, fingerprint, now],
    });
    const out: AttributionReads = { stored: null, byClick: null, candidates: [] };
    for (const r of rows) {
      if (r.kind === 'stored') {
        out.stored = {
          linkId: r.link_id,
          clickId: r.click_id,
          matchType: r.match_type,
          ambiguous: Boolean(r.ambiguous),
          shortCode: r.short_code,
          deepLinkPath: r.deep_link_path,
          deepLinkParameters: r.deep_link_parameters,
        };
      } else if (r.kind === 'click') out.byClick = toCandidate(r);
      else out.candidates.push(toCandidate(r));
    }
    out.candidates.sort((a, b) => b.clickedAt.getTime() - a.clickedAt.getTime() || (a.clickId < b.clickId ? 1 : -1));
    return out;
  }

  onModuleDestroy(): Promise<void> {
    return endPgPool(this.pool);
  }
}
