import { Injectable } from '@nestjs/common';
import { MONTH_ROLLUP_PREFIX, MONTHLY_DIMENSIONS, monthDimension, RollupDimension } from '@dl/clicks';
import { Prisma, PrismaReadService, PrismaService } from '@dl/platform/db';
import type { ClickEventResponseDto, TopLinkDto } from './analytics-response.dto';

/** Which clicks a query covers: one link, the links of a project, or the whole organization. */
export type AnalyticsScope = { linkId: string } | { projectId: string } | Record<string, never>;

export interface DayWindow {
  /** YYYY-MM-DD, inclusive */
  from: string;
  /** YYYY-MM-DD, inclusive */
  to: string;
}

export const DAY_MS = 24 * 3600 * 1000;
/** A UTC instant's day, YYYY-MM-DD. */
export const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Splits a day window into the calendar months wholly inside it (`months`: first
 * days of the first and last such month, and the last day they cover) and the
 * remaining day ranges before and after them.
 */
export function splitWindow(w: DayWindow): { days: DayWindow[]; months?: { from: string; to: string; lastDay: string } } {
  const from = Date.parse(`${w.from}T00:00:00Z`);
  const to = Date.parse(`${w.to}T00:00:00Z`);
  const f = new Date(from);
  const firstMonth = f.getUTCDate() === 1 ? from : Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + 1, 1);
  const t = new Date(to);
  const nextMonth = Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1);
  // Exclusive end of the full months: the first day of to's month, or the next month if to is a month end.
  const monthsEnd = to + DAY_MS === nextMonth ? nextMonth : Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1);
  if (firstMonth >= monthsEnd) return { days: [w] };
  const days: DayWindow[] = [];
  if (from < firstMonth) days.push({ from: w.from, to: isoDay(firstMonth - DAY_MS) });
  if (monthsEnd <= to) days.push({ from: isoDay(monthsEnd), to: w.to });
  const lastMonthStart = new Date(monthsEnd - DAY_MS);
  return {
    days,
    months: {
      from: isoDay(firstMonth),
      to: isoDay(Date.UTC(lastMonthStart.getUTCFullYear(), lastMonthStart.getUTCMonth(), 1)),
      lastDay: isoDay(monthsEnd - DAY_MS),
    },
  };
}

export interface DimensionCount {
  dimension: string;
  value: string;
  clicks: number;
}

/** A stored click as the click list reads it (the response shape, with a Date). */
export type ClickRow = Omit<ClickEventResponseDto, 'clickedAt'> & { clickedAt: Date };

/** A stored click as the export reads it: the click list's columns plus what the edge decided. */
export type ClickExportRecord = ClickRow & { isBot: boolean; variantIndex: number | null; ruleIndex: number | null };

/** The columns of a `ClickRow`: the click list and the export read the same ones (the export adds three). */
const CLICK_ROW_SELECT = {
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
} as const satisfies Prisma.ClickSelect;

/**
 * Read side of click analytics. Summaries read `click_rollups` (and
 * `click_daily_visitors` for short-window unique counts); raw `clicks` only for
 * the click list. Every method takes the organization id.
 */
@Injectable()
export class AnalyticsRepository {
  /**
   * Aggregates and the click list read the replica (DATABASE_READ_URL); the ownership checks
   * before them read the primary, so a link created a moment ago is never a 404 here.
   */
  constructor(
    private readonly prisma: PrismaService,
    private readonly read: PrismaReadService = prisma,
  ) {}

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

  /** The link's variant URLs and whether it has rules, or null when it is not the organization's. */
  async linkControls(organizationId: string, linkId: string): Promise<{ variants: Array<{ url: string }> | null; hasRules: boolean } | null> {
    const link = await this.prisma.link.findFirst({ where: { id: linkId, organizationId }, select: { variants: true, redirectRules: true } });
    if (!link) return null;
    const variants = Array.isArray(link.variants) ? (link.variants as Array<{ url: string }>) : null;
    return { variants, hasRules: Array.isArray(link.redirectRules) && link.redirectRules.length > 0 };
  }

  async projectExists(organizationId: string, projectId: string): Promise<boolean> {
    const n = await this.prisma.project.count({ where: { id: projectId, organizationId } });
    return n > 0;
  }

  /**
   * Clicks per (dimension, value) over the window, for the given dimensions: the
   * calendar months wholly inside the window from month rows (`month:<dimension>`),
   * the days before and after them from day rows.
   */
  async dimensionCounts(organizationId: string, scope: AnalyticsScope, w: DayWindow, dimensions: string[]): Promise<DimensionCount[]> {
    const split = splitWindow(w);
    const parts: Prisma.Sql[] = split.days.map(
      (d) => Prisma.sql`(r.dimension = ANY(${dimensions}::text[]) AND r.day BETWEEN ${d.from}::date AND ${d.to}::date)`,
    );
    if (split.months) {
      const monthly = dimensions.filter((d) => MONTHLY_DIMENSIONS.includes(d as RollupDimension));
      const daily = dimensions.filter((d) => !MONTHLY_DIMENSIONS.includes(d as RollupDimension));
      parts.push(Prisma.sql`(r.dimension = ANY(${monthly.map((d) => monthDimension(d as RollupDimension))}::text[])
        AND r.day BETWEEN ${split.months.from}::date AND ${split.months.to}::date)`);
      if (daily.length) {
        parts.push(Prisma.sql`(r.dimension = ANY(${daily}::text[]) AND r.day BETWEEN ${split.months.from}::date AND ${split.months.lastDay}::date)`);
      }
    }
    return this.read.$queryRaw<DimensionCount[]>`
      SELECT CASE WHEN r.dimension LIKE 'month:%' THEN substr(r.dimension, ${MONTH_ROLLUP_PREFIX.length + 1}) ELSE r.dimension END AS dimension,
        r.value, sum(r.clicks)::int AS clicks
      FROM click_rollups r
      WHERE ${this.scopeSql(organizationId, scope, 'r')}
        AND (${Prisma.join(parts, ' OR ')})
      GROUP BY 1, r.value`;
  }

  /** Non-bot clicks per day (days without clicks are absent). */
  async dailyTotals(organizationId: string, scope: AnalyticsScope, w: DayWindow): Promise<Array<{ day: string; clicks: number }>> {
    return this.read.$queryRaw<Array<{ day: string; clicks: number }>>`
      SELECT to_char(r.day, 'YYYY-MM-DD') AS day, sum(r.clicks)::int AS clicks
      FROM click_rollups r
      WHERE ${this.scopeSql(organizationId, scope, 'r')}
        AND r.day BETWEEN ${w.from}::date AND ${w.to}::date
        AND r.dimension = 'total'
      GROUP BY r.day`;
  }

  /** Exact distinct visitors over the window (per-organization salted hashes). */
  async distinctVisitors(organizationId: string, scope: AnalyticsScope, w: DayWindow): Promise<number> {
    const [row] = await this.read.$queryRaw<Array<{ n: number }>>`
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
  ): Promise<TopLinkDto[]> {
    return this.read.$queryRaw`
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
    const [row] = await this.read.$queryRaw<Array<{ total: number; active: number }>>`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE is_active AND (expires_at IS NULL OR expires_at > ${now}))::int AS active
      FROM links WHERE organization_id = ${organizationId}::uuid`;
    return row ?? { total: 0, active: 0 };
  }

  /** The link's most recent non-bot clicks. */
  recentClicks(organizationId: string, linkId: string, limit: number): Promise<ClickRow[]> {
    return this.read.click.findMany({
      where: { organizationId, linkId, isBot: false },
      orderBy: [{ clickedAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: CLICK_ROW_SELECT,
    });
  }

  /**
   * One page of a link's clicks (bots included) clicked at or after `since`, oldest first, after
   * the keyset `after` (the previous page's last click). The export streams these.
   */
  async clickExportPage(
    organizationId: string,
    linkId: string,
    since: Date,
    after: { clickedAt: Date; id: string } | null,
    take: number,
  ): Promise<ClickExportRecord[]> {
    return this.read.click.findMany({
      where: {
        organizationId,
        linkId,
        clickedAt: { gte: since },
        ...(after ? { OR: [{ clickedAt: { gt: after.clickedAt } }, { clickedAt: after.clickedAt, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ clickedAt: 'asc' }, { id: 'asc' }],
      take,
      select: { ...CLICK_ROW_SELECT, isBot: true, variantIndex: true, ruleIndex: true },
    });
  }
}
