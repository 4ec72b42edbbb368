import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@dl/platform/db';

/** The longest attribution window a link can have (hours): bounds every scan. */
export const MAX_ATTRIBUTION_WINDOW_HOURS = 2160;

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

interface ClickRow {
  click_id: string;
  link_id: string;
  clicked_at: Date;
  short_code: string;
  deep_link_path: string | null;
  deep_link_parameters: Record<string, unknown> | null;
}

const toCandidate = (r: ClickRow): CandidateClick => ({
  clickId: r.click_id,
  linkId: r.link_id,
  clickedAt: r.clicked_at,
  shortCode: r.short_code,
  deepLinkPath: r.deep_link_path,
  deepLinkParameters: r.deep_link_parameters,
});

/**
 * Reads of the install attribution hot path (indexed, never a write): clicks by id, clicks by
 * (organization, fingerprint, clicked_at desc), and an already stored install.
 */
@Injectable()
export class AttributionRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The click of `clickId` in this organization when it is within its link's attribution window. */
  async clickById(organizationId: string, clickId: string, now: Date): Promise<CandidateClick | null> {
    const rows = await this.prisma.$queryRaw<ClickRow[]>(Prisma.sql`
      SELECT c.id AS click_id, c.link_id, c.clicked_at, l.short_code, l.deep_link_path, l.deep_link_parameters
      FROM clicks c
      JOIN links l ON l.id = c.link_id AND l.organization_id = c.organization_id
      WHERE c.id = ${clickId}::uuid AND c.organization_id = ${organizationId}::uuid
        AND c.clicked_at <= ${now}
        AND c.clicked_at >= ${now}::timestamptz - make_interval(hours => l.attribution_window_hours)`);
    return rows[0] ? toCandidate(rows[0]) : null;
  }

  /**
   * The most recent human clicks with this fingerprint, each within its own link's window
   * (newest first, ties by id), enough to detect an ambiguous match.
   */
  async clicksByFingerprint(organizationId: string, fingerprint: string, now: Date, limit = 10): Promise<CandidateClick[]> {
    const rows = await this.prisma.$queryRaw<ClickRow[]>(Prisma.sql`
      SELECT c.id AS click_id, c.link_id, c.clicked_at, l.short_code, l.deep_link_path, l.deep_link_parameters
      FROM clicks c
      JOIN links l ON l.id = c.link_id AND l.organization_id = c.organization_id
      WHERE c.organization_id = ${organizationId}::uuid
        AND c.fingerprint = ${fingerprint}
        AND c.clicked_at <= ${now}
        AND c.clicked_at >= ${now}::timestamptz - make_interval(hours => ${MAX_ATTRIBUTION_WINDOW_HOURS})
        AND c.clicked_at >= ${now}::timestamptz - make_interval(hours => l.attribution_window_hours)
        AND NOT c.is_bot
      ORDER BY c.clicked_at DESC, c.id DESC
      LIMIT ${limit}`);
    return rows.map(toCandidate);
  }

  /** An install already stored by the worker (idempotency beyond the Redis copy). */
  async storedInstall(organizationId: string, appId: string, installId: string): Promise<StoredInstall | null> {
    const rows = await this.prisma.$queryRaw<Array<{
      link_id: string | null;
      click_id: string | null;
      match_type: string | null;
      ambiguous: boolean;
      short_code: string | null;
      deep_link_path: string | null;
      deep_link_parameters: Record<string, unknown> | null;
    }>>(Prisma.sql`
      SELECT i.link_id, i.click_id, i.match_type, i.ambiguous, l.short_code, l.deep_link_path, l.deep_link_parameters
      FROM installs i
      LEFT JOIN links l ON l.id = i.link_id
      WHERE i.organization_id = ${organizationId}::uuid AND i.app_id = ${appId}::uuid AND i.install_id = ${installId}::uuid`);
    const r = rows[0];
    if (!r) return null;
    return {
      linkId: r.link_id,
      clickId: r.click_id,
      matchType: r.match_type,
      ambiguous: r.ambiguous,
      shortCode: r.short_code,
      deepLinkPath: r.deep_link_path,
      deepLinkParameters: r.deep_link_parameters,
    };
  }
}
