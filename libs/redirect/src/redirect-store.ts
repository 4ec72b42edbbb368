import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';
import { RedirectLinkSnapshot, SNAPSHOT_COLUMNS, SnapshotRow, toRedirectSnapshot } from './redirect-link';

/**
 * A link of an organization scheduled for deletion is not served (decisions §20): the 404 page,
 * like a missing one. A suspended organization's links answer the disabled page (decisions §22):
 * its state rides on the snapshot.
 */
const LINK_BY_CODE = `SELECT ${SNAPSHOT_COLUMNS.join(', ')},
  (SELECT o.suspended_at IS NOT NULL FROM organizations o WHERE o.id = links.organization_id) AS org_suspended
  FROM links WHERE domain_name = $1 AND short_code = $2
  AND NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = links.organization_id AND o.deletion_scheduled_at IS NOT NULL)`;

/** Branded domains that serve links (verified, or invalid: links keep working), with whether links use them. */
const SERVING_DOMAINS = `
  SELECT d.id, d.organization_id, d.domain, d.status, d.root_redirect_url, d.not_found_url,
         EXISTS (SELECT 1 FROM links l WHERE l.domain_id = d.id) AS in_use
  FROM domains d WHERE d.status IN ('verified', 'invalid')`;

/** The registered apps of some organizations (for their domains' .well-known files). */
const APPS_OF_ORGS = `
  SELECT organization_id, team_id, bundle_id, package_name, sha256_fingerprints
  FROM apps WHERE revoked_at IS NULL AND organization_id = ANY($1::uuid[])
  ORDER BY created_at, id`;

export interface ServingDomainRow {
  id: string;
  organization_id: string;
  domain: string;
  status: 'verified' | 'invalid';
  root_redirect_url: string | null;
  not_found_url: string | null;
  in_use: boolean;
}

export interface OrgAppRow {
  organization_id: string;
  team_id: string | null;
  bundle_id: string | null;
  package_name: string | null;
  sha256_fingerprints: string[];
}

/**
 * A branded domain's `fdl` link (Firebase Dynamic Links long links are counted on it), made on
 * the first long-link visit: by the organization's first owner, with its oldest template, its
 * destination the domain's root (each visit brings its own). A code already there is kept.
 */
const ENSURE_FDL_LINK = `
  INSERT INTO links (organization_id, user_id, template_id, domain_id, domain_name, short_code, original_url, title, migration_metadata)
  SELECT d.organization_id, m.user_id, t.id, d.id, d.domain, 'fdl', 'https://' || d.domain || '/', 'Firebase Dynamic Links',
         '{"competitorPlatform":"firebase","competitorId":null}'::jsonb
  FROM domains d
  CROSS JOIN LATERAL (SELECT user_id FROM memberships WHERE organization_id = d.organization_id AND role = 'OWNER' ORDER BY created_at, user_id LIMIT 1) m
  CROSS JOIN LATERAL (SELECT id FROM templates WHERE organization_id = d.organization_id ORDER BY created_at, id LIMIT 1) t
  WHERE d.id = $1::uuid AND d.status = 'verified'
  ON CONFLICT (domain_name, short_code) DO NOTHING`;

/** Web destinations carry `dl_click` for an organization on a paid plan (decisions §23) or with a pixel site (§9). */
const CLICK_ID_OF_ORG = `
  SELECT 1 FROM organizations o
   WHERE o.id = $1::uuid AND (o.tier <> 'FREE' OR EXISTS (SELECT 1 FROM pixel_sites p WHERE p.organization_id = o.id))`;

/**
 * The edge's only Postgres reads, on a small `pg` pool of its own (cache misses only: a hot
 * link never reaches it). The redirect process runs no Prisma query: Prisma's query compiler
 * and the links library would take more resident memory than the rest of the edge for these two
 * statements.
 */
@Injectable()
export class RedirectStore implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Postgres unreachable: the miss fails (503 page) instead of waiting for a connection forever.
    this.pool = createPgPool(config.DATABASE_URL, { max: 4, connectionTimeoutMillis: 2_000 });
  }

  /**
   * The link behind an edge key (`hostCodeKey`: the code on the service host, `<domain>/<code>`
   * on a branded domain; the code space is per host, so the read is not tenant-scoped), or null.
   */
  async findLink(key: string): Promise<RedirectLinkSnapshot | null> {
    const slash = key.lastIndexOf('/');
    const values = slash < 0 ? ['', key] : [key.slice(0, slash), key.slice(slash + 1)];
    const { rows } = await this.pool.query<SnapshotRow>({ name: 'redirect-link-by-host-code', text: LINK_BY_CODE, values });
    return rows[0] ? toRedirectSnapshot(rows[0]) : null;
  }

  /** Makes a verified domain's `fdl` link when it has none (ENSURE_FDL_LINK; a cold path: once per domain). */
  async ensureFdlLink(domainId: string): Promise<void> {
    await this.pool.query({ name: 'redirect-ensure-fdl-link', text: ENSURE_FDL_LINK, values: [domainId] });
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

  /** Every branded domain that serves links, and the apps of their organizations. */
  async servingDomains(): Promise<{ domains: ServingDomainRow[]; apps: OrgAppRow[] }> {
    const { rows: domains } = await this.pool.query<ServingDomainRow>(SERVING_DOMAINS);
    if (!domains.length) return { domains, apps: [] };
    const orgs = [...new Set(domains.map((d) => d.organization_id))];
    const { rows: apps } = await this.pool.query<OrgAppRow>({ text: APPS_OF_ORGS, values: [orgs] });
    return { domains, apps };
  }

  /** Do the organization's web destinations carry `dl_click` (a paid plan or a pixel site)? */
  async appendsClickId(organizationId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({ name: 'redirect-click-id', text: CLICK_ID_OF_ORG, values: [organizationId] });
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
