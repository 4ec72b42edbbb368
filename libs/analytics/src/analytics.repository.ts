import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@dl/platform/db';

/** Which clicks a query covers: one link, the links of a project, or the whole organization. */
export type AnalyticsScope = { linkId: string } | { projectId: string } | Record<string, never>;

export interface DayWindow {
  /** YYYY-MM-DD, inclusive */
  from: string;
  /** YYYY-MM-DD, inclusive */
  to: string;
}

export interface DimensionCount {
  dimension: string;
  value: string;
  clicks: number;
}

export interface ClickRow {
  id: string;
  linkId: string;
  clickedAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  deviceType: string | null;
  platform: string | null;
  browser: string | null;
  browserVersion: string | null;
  os: string | null;
  osVersion: string | null;
  countryCode: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
  timezone: string | null;
  latitude: number | null;
  longitude: number | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  referrer: string | null;
}

/**
 * Read side of click analytics. Summaries read `click_rollups` (and
 * `click_daily_visitors` for short-window unique counts); raw `clicks` only for
 * the click list. Every method takes the organization id.
 */
@Injectable()
export class AnalyticsRepository {
  constructor(private readonly prisma: PrismaService) {}

  private scopeSql(organizationId: string, scope: AnalyticsScope, alias: string): Prisma.Sql {
    const t = Prisma.raw(alias);
    if ('linkId' in scope) return Prisma.sql`${t}.organization_id = ${organizationId}::uuid AND ${t}.link_id = ${scope.linkId}::uuid`;
    if ('projectId' in scope) {
      return Prisma.sql`${t}.organization_id = ${organizationId}::uuid AND ${t}.link_id IN (
        SELECT id FROM links WHERE organization_id = ${organizationId}::uuid AND project_id = ${scope.projectId}::uuid)`;
    }
    return Prisma.sql`${t}.organization_id = ${organizationId}::uuid`;
  }

  async linkExists(organizationId: string, linkId: string): Promise<boolean> {
    const n = await this.prisma.link.count({ where: { id: linkId, organizationId } });
    return n > 0;
  }

  async projectExists(organizationId: string, projectId: string): Promise<boolean> {
    const n = await this.prisma.project.count({ where: { id: projectId, organizationId } });
    return n > 0;
  }

  /** Clicks per (dimension, value) over the window, for the given dimensions. */
  async dimensionCounts(organizationId: string, scope: AnalyticsScope, w: DayWindow, dimensions: string[]): Promise<DimensionCount[]> {
    return this.prisma.$queryRaw<DimensionCount[]>`
      SELECT r.dimension, r.value, sum(r.clicks)::int AS clicks
      FROM click_rollups r
      WHERE ${this.scopeSql(organizationId, scope, 'r')}
        AND r.day BETWEEN ${w.from}::date AND ${w.to}::date
        AND r.dimension = ANY(${dimensions}::text[])
      GROUP BY r.dimension, r.value`;
  }

  /** Non-bot clicks per day (days without clicks are absent). */
  async dailyTotals(organizationId: string, scope: AnalyticsScope, w: DayWindow): Promise<Array<{ day: string; clicks: number }>> {
    return this.prisma.$queryRaw<Array<{ day: string; clicks: number }>>`
      SELECT to_char(r.day, 'YYYY-MM-DD') AS day, sum(r.clicks)::int AS clicks
      FROM click_rollups r
      WHERE ${this.scopeSql(organizationId, scope, 'r')}
        AND r.day BETWEEN ${w.from}::date AND ${w.to}::date
        AND r.dimension = 'total'
      GROUP BY r.day`;
  }

  /** Exact distinct visitors over the window (per-organization salted hashes). */
  async distinctVisitors(organizationId: string, scope: AnalyticsScope, w: DayWindow): Promise<number> {
    const [row] = await this.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM (
        SELECT v.visitor_hash FROM click_daily_visitors v
        WHERE ${this.scopeSql(organizationId, scope, 'v')}
          AND v.day BETWEEN ${w.from}::date AND ${w.to}::date
        GROUP BY v.visitor_hash) d`;
    return row?.n ?? 0;
  }

  /** The organization's links with most clicks in the window. */
  async topLinks(
    organizationId: string,
    w: DayWindow,
    limit: number,
  ): Promise<Array<{ id: string; shortCode: string; title: string | null; clicks: number }>> {
    return this.prisma.$queryRaw`
      SELECT l.id::text AS id, l.short_code AS "shortCode", l.title, t.clicks
      FROM (
        SELECT r.link_id, sum(r.clicks)::int AS clicks FROM click_rollups r
        WHERE r.organization_id = ${organizationId}::uuid
          AND r.day BETWEEN ${w.from}::date AND ${w.to}::date AND r.dimension = 'total'
        GROUP BY r.link_id) t
      JOIN links l ON l.id = t.link_id AND l.organization_id = ${organizationId}::uuid
      ORDER BY t.clicks DESC, l.short_code
      LIMIT ${limit}`;
  }

  async linkCounts(organizationId: string, now: Date): Promise<{ total: number; active: number }> {
    const [row] = await this.prisma.$queryRaw<Array<{ total: number; active: number }>>`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE is_active AND (expires_at IS NULL OR expires_at > ${now}))::int AS active
      FROM links WHERE organization_id = ${organizationId}::uuid`;
    return row ?? { total: 0, active: 0 };
  }

  /** The link's most recent non-bot clicks. */
  recentClicks(organizationId: string, linkId: string, limit: number): Promise<ClickRow[]> {
    return this.prisma.click.findMany({
      where: { organizationId, linkId, isBot: false },
      orderBy: [{ clickedAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: {
        id: true,
        linkId: true,
        clickedAt: true,
        ipAddress: true,
        userAgent: true,
        deviceType: true,
        platform: true,
        browser: true,
        browserVersion: true,
        os: true,
        osVersion: true,
        countryCode: true,
        countryName: true,
        region: true,
        city: true,
        timezone: true,
        latitude: true,
        longitude: true,
        utmSource: true,
        utmMedium: true,
        utmCampaign: true,
        utmTerm: true,
        utmContent: true,
        referrer: true,
      },
    });
  }
}
