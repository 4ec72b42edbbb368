import { Injectable } from '@nestjs/common';
import { MONTH_ROLLUP_PREFIX, MONTHLY_DIMENSIONS, monthDimension, RollupDimension } from '@dl/clicks';
import { Prisma, PrismaReadService } from '@dl/platform/db';

/** [start, end) in time; rollup days are the UTC days of that range. */
export interface Window {
  start: Date;
  end: Date;
}

export interface ReportWindows {
  current: Window;
  prior: Window;
}

/** One group of a report's conversions (see ReportDataRepository.conversions). */
export interface ConversionReportRow {
  current: boolean;
  linkId: string | null;
  shortCode: string | null;
  title: string | null;
  currency: string;
  leads: number;
  sales: number;
  amount: number;
  refunded: number;
}

/** An amount per currency in the current window and the prior one. */
export interface CurrencyTotal {
  currency: string;
  amount: number;
  prior: number;
}

/** Rows summed per currency (ReportDataRepository.currencyTotals): `value` over `table`, timed by `at`, where `where`. */
interface CurrencySource {
  table: Prisma.Sql;
  value: Prisma.Sql;
  at: Prisma.Sql;
  where: Prisma.Sql;
}
const ATTRIBUTED_REVENUE: CurrencySource = { table: Prisma.sql`in_app_events`, value: Prisma.sql`revenue`, at: Prisma.sql`event_timestamp`, where: Prisma.sql`attributed AND event_name = 'revenue'` };
const PIXEL_CONVERSION_VALUE: CurrencySource = { table: Prisma.sql`pixel_events`, value: Prisma.sql`value`, at: Prisma.sql`occurred_at`, where: Prisma.sql`type = 'conversion'` };

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Every aggregate the monthly report is built from, as SQL over rollups and the
 * stream tables, on the replica (DATABASE_READ_URL). Clicks come from `click_rollups` (non-bot
 * dimensions) and unique visitors from `click_monthly_visitors` (a month) or
 * `click_daily_visitors` (part of one); nothing scans raw clicks.
 */
@Injectable()
export class ReportDataRepository {
  constructor(private readonly read: PrismaReadService) {}

  /**
   * One pass over the 'total' rollup rows of both windows: clicks per day (prior and
   * current window) and clicks per link in the current window, with label fields.
   */
  async clickTotals(
    organizationId: string,
    w: ReportWindows,
  ): Promise<{
    daily: Array<{ day: string; clicks: number }>;
    links: Array<{ linkId: string; shortCode: string; title: string | null; clicks: number }>;
  }> {
    const rows = await this.read.$queryRaw<
      Array<{ day: string | null; linkId: string | null; shortCode: string | null; title: string | null; clicks: number }>
    >`
      WITH t AS (
        SELECT CASE WHEN GROUPING(day) = 0 THEN to_char(day, 'YYYY-MM-DD') END AS day,
          CASE WHEN GROUPING(link_id) = 0 THEN link_id END AS link_id,
          CASE WHEN GROUPING(day) = 0 THEN SUM(clicks)
               ELSE SUM(clicks) FILTER (WHERE day >= ${day(w.current.start)}::date) END::int AS clicks
        FROM click_rollups
        WHERE organization_id = ${organizationId}::uuid AND dimension = 'total'
          AND day >= ${day(w.prior.start)}::date AND day < ${day(w.current.end)}::date
          AND (day < ${day(w.prior.end)}::date OR day >= ${day(w.current.start)}::date)
        GROUP BY GROUPING SETS ((day), (link_id))
      )
      SELECT t.day, t.link_id AS "linkId", l.short_code AS "shortCode", l.title, t.clicks
      FROM t LEFT JOIN links l ON l.id = t.link_id AND l.organization_id = ${organizationId}::uuid
      WHERE t.day IS NOT NULL OR (t.clicks > 0 AND l.id IS NOT NULL)
      ORDER BY t.day NULLS LAST, t.clicks DESC, l.created_at ASC, l.short_code ASC`;
    return {
      daily: rows.filter((r) => r.day !== null).map((r) => ({ day: r.day as string, clicks: r.clicks })),
      links: rows
        .filter((r) => r.day === null)
        .map((r) => ({ linkId: r.linkId as string, shortCode: r.shortCode as string, title: r.title, clicks: r.clicks })),
    };
  }

  /**
   * For some links: their current variants and whether they have redirect rules, and their
   * clicks per variant and per rule in the window (decisions §16: variants and rules of top links).
   */
  async linkControls(
    organizationId: string,
    w: Window,
    linkIds: string[],
  ): Promise<{
    links: Array<{ id: string; variants: Array<{ url: string }> | null; hasRules: boolean }>;
    clicks: Array<{ linkId: string; dimension: string; value: string; clicks: number }>;
  }> {
    if (!linkIds.length) return { links: [], clicks: [] };
    const [links, clicks] = await Promise.all([
      this.read.$queryRaw<Array<{ id: string; variants: Array<{ url: string }> | null; hasRules: boolean }>>`
        SELECT id::text AS id, variants, coalesce(jsonb_array_length(redirect_rules), 0) > 0 AS "hasRules"
        FROM links WHERE organization_id = ${organizationId}::uuid AND id = ANY(${linkIds}::uuid[])`,
      this.read.$queryRaw<Array<{ linkId: string; dimension: string; value: string; clicks: number }>>`
        SELECT link_id::text AS "linkId", dimension, value, SUM(clicks)::int AS clicks
        FROM click_rollups
        WHERE organization_id = ${organizationId}::uuid AND link_id = ANY(${linkIds}::uuid[])
          AND dimension IN ('variant', 'rule')
          AND day >= ${day(w.start)}::date AND day < ${day(w.end)}::date
        GROUP BY link_id, dimension, value
        HAVING SUM(clicks) > 0`,
    ]);
    return { links, clicks };
  }

  /** Links that existed by the end of the window and had no click in it. */
  async zeroClickLinks(organizationId: string, w: Window): Promise<number> {
    const [row] = await this.read.$queryRaw<Array<{ n: number }>>`
      SELECT COUNT(*)::int AS n FROM links l
      WHERE l.organization_id = ${organizationId}::uuid AND l.created_at < ${w.end}
        AND NOT EXISTS (
          SELECT 1 FROM click_rollups r
          WHERE r.link_id = l.id AND r.dimension = 'total' AND r.clicks > 0
            AND r.day >= ${day(w.start)}::date AND r.day < ${day(w.end)}::date
        )`;
    return row.n;
  }

  /**
   * Clicks per value of the given rollup dimensions in a window that starts on the 1st and runs
   * through today or the month's end (the report's current window): dimensions the worker also
   * keeps per month read their one month row per link and value (`month:<dimension>`), the
   * others their day rows.
   */
  dimensionClicks(
    organizationId: string,
    w: Window,
    dimensions: string[],
  ): Promise<Array<{ dimension: string; value: string; clicks: number }>> {
    const monthly = dimensions.filter((d) => MONTHLY_DIMENSIONS.includes(d as RollupDimension));
    const daily = dimensions.filter((d) => !monthly.includes(d));
    return this.read.$queryRaw`
      SELECT CASE WHEN dimension LIKE 'month:%' THEN substr(dimension, ${MONTH_ROLLUP_PREFIX.length + 1}) ELSE dimension END AS dimension,
        value, SUM(clicks)::int AS clicks
      FROM click_rollups
      WHERE organization_id = ${organizationId}::uuid
        AND ((dimension = ANY(${daily}::text[]) AND day >= ${day(w.start)}::date AND day < ${day(w.end)}::date)
          OR (dimension = ANY(${monthly.map((d) => monthDimension(d as RollupDimension))}::text[]) AND day = ${day(w.start)}::date))
      GROUP BY 1, value
      HAVING SUM(clicks) > 0
      ORDER BY 1, clicks DESC, value`;
  }

  /**
   * Distinct visitors (per-organization salted hashes) of a calendar month so far, from
   * `click_monthly_visitors` (one row per visitor of the month, kept from click_daily_visitors by
   * triggers): the same number as a DISTINCT over the month's daily rows, without reading them.
   */
  async monthVisitors(organizationId: string, monthStart: Date): Promise<number> {
    const [row] = await this.read.$queryRaw<Array<{ n: number }>>`
      SELECT COUNT(*)::int AS n FROM click_monthly_visitors
      WHERE organization_id = ${organizationId}::uuid AND month = ${day(monthStart)}::date`;
    return row.n;
  }

  /** Distinct visitors in any window (the live month's prior days): DISTINCT in a subquery, a hash aggregate, not a sort. */
  async uniqueVisitors(organizationId: string, w: Window): Promise<number> {
    // Byte-wise comparison (COLLATE "C") and enough memory to keep the distinct set off disk.
    const [, rows] = await this.read.$transaction([
      this.read.$executeRaw`SET LOCAL work_mem = '64MB'`,
      this.read.$queryRaw<Array<{ n: number }>>`
        SELECT COUNT(*)::int AS n FROM (
          SELECT DISTINCT visitor_hash COLLATE "C" FROM click_daily_visitors
          WHERE organization_id = ${organizationId}::uuid
            AND day >= ${day(w.start)}::date AND day < ${day(w.end)}::date
        ) v`,
    ]);
    return rows[0].n;
  }

  /** Whether the organization ever received SDK data and pixel data. */
  /**
   * Conversions of both windows from `conversion_daily` (refunds already net the sale's day):
   * per window, link and currency (leads under currency ''), with the link's labels; `linkId`
   * is null for unattributed conversions. `any` says whether the organization ever recorded one.
   */
  async conversions(organizationId: string, w: ReportWindows): Promise<{ any: boolean; rows: ConversionReportRow[] }> {
    const rows = await this.read.$queryRaw<ConversionReportRow[]>`
      SELECT (d.day >= ${day(w.current.start)}::date) AS current, l.id::text AS "linkId", l.short_code AS "shortCode", l.title,
             d.currency, SUM(d.leads)::int AS leads, SUM(d.sales)::int AS sales,
             SUM(d.amount)::float8 AS amount, SUM(d.refunded)::float8 AS refunded
      FROM conversion_daily d LEFT JOIN links l ON l.id = d.link_id AND l.organization_id = ${organizationId}::uuid
      WHERE d.organization_id = ${organizationId}::uuid
        AND d.day >= ${day(w.prior.start)}::date AND d.day < ${day(w.current.end)}::date
        AND (d.day < ${day(w.prior.end)}::date OR d.day >= ${day(w.current.start)}::date)
      GROUP BY 1, 2, 3, 4, 5`;
    if (rows.length) return { any: true, rows };
    const [row] = await this.read.$queryRaw<Array<{ any: boolean }>>`
      SELECT EXISTS (SELECT 1 FROM conversion_org_daily WHERE organization_id = ${organizationId}::uuid) AS any`;
    return { any: row.any, rows };
  }

  async streams(organizationId: string): Promise<{ sdk: boolean; pixel: boolean }> {
    const [row] = await this.read.$queryRaw<Array<{ sdk: boolean; pixel: boolean }>>`
      SELECT
        (EXISTS (SELECT 1 FROM installs WHERE organization_id = ${organizationId}::uuid)
          OR EXISTS (SELECT 1 FROM app_sessions WHERE organization_id = ${organizationId}::uuid)
          OR EXISTS (SELECT 1 FROM in_app_events WHERE organization_id = ${organizationId}::uuid)) AS sdk,
        EXISTS (SELECT 1 FROM pixel_events WHERE organization_id = ${organizationId}::uuid) AS pixel`;
    return row;
  }

  installsByPlatform(
    organizationId: string,
    w: Window,
  ): Promise<Array<{ platform: string; installs: number; attributed: number }>> {
    return this.read.$queryRaw`
      SELECT platform, COUNT(*)::int AS installs, COUNT(link_id)::int AS attributed
      FROM installs
      WHERE organization_id = ${organizationId}::uuid AND created_at >= ${w.start} AND created_at < ${w.end}
      GROUP BY platform ORDER BY installs DESC, platform`;
  }

  async countInstalls(organizationId: string, w: Window): Promise<number> {
    const [row] = await this.read.$queryRaw<Array<{ n: number }>>`
      SELECT COUNT(*)::int AS n FROM installs
      WHERE organization_id = ${organizationId}::uuid AND created_at >= ${w.start} AND created_at < ${w.end}`;
    return row.n;
  }

  async countSessions(organizationId: string, w: Window): Promise<number> {
    const [row] = await this.read.$queryRaw<Array<{ n: number }>>`
      SELECT COUNT(*)::int AS n FROM app_sessions
      WHERE organization_id = ${organizationId}::uuid AND opened_at >= ${w.start} AND opened_at < ${w.end}`;
    return row.n;
  }

  /** Attributed in-app events per name (unattributed events are left out of event analytics). */
  eventsByName(
    organizationId: string,
    w: Window,
  ): Promise<Array<{ name: string; events: number; installs: number }>> {
    return this.read.$queryRaw`
      SELECT event_name AS name, COUNT(*)::int AS events, COUNT(DISTINCT install_id)::int AS installs
      FROM in_app_events
      WHERE organization_id = ${organizationId}::uuid AND attributed
        AND event_timestamp >= ${w.start} AND event_timestamp < ${w.end}
      GROUP BY event_name ORDER BY events DESC, event_name`;
  }

  async countEvents(organizationId: string, w: Window): Promise<{ events: number; revenueEvents: number }> {
    const [row] = await this.read.$queryRaw<Array<{ events: number; revenueEvents: number }>>`
      SELECT COUNT(*)::int AS events, COUNT(*) FILTER (WHERE event_name = 'revenue')::int AS "revenueEvents"
      FROM in_app_events
      WHERE organization_id = ${organizationId}::uuid AND attributed
        AND event_timestamp >= ${w.start} AND event_timestamp < ${w.end}`;
    return row;
  }

  /** Pixel counts for one window. */
  async pixelCounts(
    organizationId: string,
    w: Window,
  ): Promise<{ pageviews: number; conversions: number; attributedConversions: number }> {
    const [row] = await this.read.$queryRaw<
      Array<{ pageviews: number; conversions: number; attributedConversions: number }>
    >`
      SELECT COUNT(*) FILTER (WHERE type = 'pageview')::int AS pageviews,
        COUNT(*) FILTER (WHERE type = 'conversion')::int AS conversions,
        COUNT(*) FILTER (WHERE type = 'conversion' AND link_id IS NOT NULL)::int AS "attributedConversions"
      FROM pixel_events
      WHERE organization_id = ${organizationId}::uuid AND occurred_at >= ${w.start} AND occurred_at < ${w.end}`;
    return row;
  }

  /** Revenue per currency of attributed `revenue` events, current and prior window. */
  revenue(organizationId: string, w: ReportWindows): Promise<CurrencyTotal[]> {
    return this.currencyTotals(organizationId, w, ATTRIBUTED_REVENUE);
  }

  /** Conversion value per currency, current and prior window. */
  pixelValue(organizationId: string, w: ReportWindows): Promise<CurrencyTotal[]> {
    return this.currencyTotals(organizationId, w, PIXEL_CONVERSION_VALUE);
  }

  /**
   * Sums of `value` per currency in the current and the prior window, over the rows of `table`
   * (timed by `at`) that match `where`: one scan of both windows.
   */
  private currencyTotals(
    organizationId: string,
    w: ReportWindows,
    { table, value, at, where }: CurrencySource,
  ): Promise<CurrencyTotal[]> {
    return this.read.$queryRaw`
      SELECT upper(currency) AS currency,
        COALESCE(SUM(${value}) FILTER (WHERE ${at} >= ${w.current.start}), 0)::float8 AS amount,
        COALESCE(SUM(${value}) FILTER (WHERE ${at} < ${w.prior.end}), 0)::float8 AS prior
      FROM ${table}
      WHERE organization_id = ${organizationId}::uuid AND ${where}
        AND ${value} IS NOT NULL AND currency IS NOT NULL
        AND ${at} >= ${w.prior.start} AND ${at} < ${w.current.end}
        AND (${at} < ${w.prior.end} OR ${at} >= ${w.current.start})
      GROUP BY upper(currency) ORDER BY amount DESC, currency`;
  }

  /** Most viewed pages (URL without query string) in the window. */
  topPages(organizationId: string, w: Window, limit: number): Promise<Array<{ page: string; views: number }>> {
    return this.read.$queryRaw`
      SELECT split_part(split_part(url, '#', 1), '?', 1) AS page, COUNT(*)::int AS views
      FROM pixel_events
      WHERE organization_id = ${organizationId}::uuid AND type = 'pageview'
        AND occurred_at >= ${w.start} AND occurred_at < ${w.end}
      GROUP BY 1 ORDER BY views DESC, page LIMIT ${limit}`;
  }

  async housekeeping(
    organizationId: string,
    w: Window,
    nameLimit: number,
  ): Promise<{ created: string[]; expired: string[]; disabled: number; withStoreUrls: number }> {
    const [created, expired, counts] = await Promise.all([
      this.read.$queryRaw<Array<{ name: string }>>`
        SELECT COALESCE(NULLIF(title, ''), short_code) AS name FROM links
        WHERE organization_id = ${organizationId}::uuid AND created_at >= ${w.start} AND created_at < ${w.end}
        ORDER BY created_at, short_code LIMIT ${nameLimit}`,
      this.read.$queryRaw<Array<{ name: string }>>`
        SELECT COALESCE(NULLIF(title, ''), short_code) AS name FROM links
        WHERE organization_id = ${organizationId}::uuid AND expires_at >= ${w.start} AND expires_at < ${w.end}
        ORDER BY expires_at, short_code LIMIT ${nameLimit}`,
      this.read.$queryRaw<Array<{ disabled: number; withStoreUrls: number }>>`
        SELECT COUNT(*) FILTER (WHERE NOT is_active)::int AS disabled,
          COUNT(*) FILTER (WHERE ios_url IS NOT NULL OR android_url IS NOT NULL)::int AS "withStoreUrls"
        FROM links WHERE organization_id = ${organizationId}::uuid AND created_at < ${w.end}`,
    ]);
    return {
      created: created.map((r) => r.name),
      expired: expired.map((r) => r.name),
      disabled: counts[0].disabled,
      withStoreUrls: counts[0].withStoreUrls,
    };
  }
}
