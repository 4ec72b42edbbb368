import { Injectable } from '@nestjs/common';
import { CUBE_STRATA } from '@dl/clicks';
import { Prisma, PrismaReadService, PrismaService } from '@dl/platform/db';
import type { AnalyticsFilters } from './analytics-filters.dto';
import { DAY_MS, isoDay, splitWindow } from './analytics.repository';
import { DailyBounds, dailySplit, DayRange, UTC_DAY_ZONES, utcBounds, wholeUtcDays, ZonedWindow } from './cube-daily';

/** What a cube query breaks the filtered clicks down by (each a list, top `limit` by clicks). */
export const BREAKDOWNS = {
  link: ['link_id'],
  country: ['country_code'],
  city: ['country_code', 'region', 'city'],
  region: ['country_code', 'region'],
  timezone: ['timezone'],
  device: ['device_type'],
  platform: ['platform'],
  os: ['os'],
  browser: ['browser'],
  referrer: ['referrer_host'],
  utmSource: ['utm_source'],
  utmMedium: ['utm_medium'],
  utmCampaign: ['utm_campaign'],
  variant: ['variant_index'],
  rule: ['rule_index'],
} as const;
export type Breakdown = keyof typeof BREAKDOWNS;

/** The columns any breakdown reads, in the GROUPING() argument order (first = most significant bit). */
const GROUP_COLUMNS = ['hour', 'link_id', 'country_code', 'region', 'city', 'timezone', 'device_type', 'platform', 'os', 'browser',
  'referrer_host', 'utm_source', 'utm_medium', 'utm_campaign', 'variant_index', 'rule_index'] as const;
type GroupColumn = (typeof GROUP_COLUMNS)[number];

/** GROUPING()'s value for `set` when GROUPING() lists `columns`: a bit per column left out of the set (first = most significant). */
export function groupingMask(columns: readonly GroupColumn[], set: readonly string[]): number {
  let mask = 0;
  columns.forEach((c, i) => {
    if (!set.includes(c)) mask |= 1 << (columns.length - 1 - i);
  });
  return mask;
}

/**
 * The breakdowns click_cube_daily holds, in its `dimension` order (1, 2 …; 0 is the day's total):
 * dl_cube_dims in the migration writes the same keys (k1-k3 = BREAKDOWNS' columns).
 */
export const DAILY_BREAKDOWNS = ['link', 'country', 'city', 'device', 'os', 'browser', 'referrer', 'utmSource', 'utmMedium', 'utmCampaign'] as const satisfies readonly Breakdown[];

/** One breakdown's row: the grouped columns' values (null when unknown) and the sums. */
export type CubeGroup = Partial<Record<GroupColumn, string | null>> & { clicks: number; visitors: number };

export interface CubeAnswer {
  /** Local days (YYYY-MM-DD in the window's zone) with clicks. */
  days: Array<{ day: string; clicks: number; visitors: number }>;
  lists: Partial<Record<Breakdown, CubeGroup[]>>;
}

/** Equality filters on cube columns, keyed by the filter's name. */
const COLUMN_FILTERS = {
  country: 'country_code',
  city: 'city',
  device: 'device_type',
  os: 'os',
  browser: 'browser',
  referrerHost: 'referrer_host',
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
} as const satisfies Partial<Record<keyof AnalyticsFilters, GroupColumn>>;

/**
 * Cube rows as click_cube_daily rows (dimension, k1-k3, sums) in one GROUPING SETS pass: the hours
 * (dimension 0, as days once summed) and a set per breakdown (dl_cube_dims' keys), a few hundred
 * groups from an hour's rows instead of a row per breakdown and cube row. `g` is GROUPING() of
 * `columns`; `select` maps a group `t` to its dimension and keys.
 */
const CUBE_AS_DAILY = (() => {
  const columns = GROUP_COLUMNS.filter((col) => col === 'hour' || DAILY_BREAKDOWNS.some((b) => (BREAKDOWNS[b] as readonly string[]).includes(col)));
  const hourMask = groupingMask(columns, ['hour']);
  const masks = DAILY_BREAKDOWNS.map((b) => groupingMask(columns, BREAKDOWNS[b]));
  const key = (j: number) => {
    const whens = DAILY_BREAKDOWNS.flatMap((b, i) => (BREAKDOWNS[b].length > j ? [`WHEN ${masks[i]} THEN t.${BREAKDOWNS[b][j]}`] : []));
    return whens.length ? `CASE t.g ${whens.join(' ')} END` : 'NULL::text';
  };
  return {
    hourMask,
    grouping: Prisma.raw(`GROUPING(${columns.map((col) => `c.${col}`).join(', ')})`),
    columns: Prisma.raw(columns.map((col) => (col === 'hour' ? 'c.hour' : `c.${col}::text AS ${col}`)).join(', ')),
    sets: Prisma.raw(['(c.hour)', ...DAILY_BREAKDOWNS.map((b) => `(${BREAKDOWNS[b].map((col) => `c.${col}`).join(', ')})`)].join(', ')),
    dimension: Prisma.raw(`(CASE t.g WHEN ${hourMask} THEN 0 ${masks.map((m, i) => `WHEN ${m} THEN ${i + 1}`).join(' ')} END)::smallint`),
    keys: Prisma.raw([0, 1, 2].map(key).join(', ')),
  };
})();

/** A row of the daily answer: a day's total (dimension 0), a list's value, or rolled_before (dimension -1). */
interface DailyRow {
  dimension: number;
  day: string | null;
  k1: string | null;
  k2: string | null;
  k3: string | null;
  clicks: number;
  visitors: number;
  /** The link's, on rows of the link list whose link exists. */
  shortCode: string | null;
  title: string | null;
  rolledBefore: Date | null;
}

/**
 * Read side of `click_cube` (docs/analytics-storage.md): one statement per answer, its breakdowns
 * as GROUPING SETS over the rows the window and filters select, so the rows are read once. Every
 * method takes the organization id; a link of another organization selects nothing.
 */
@Injectable()
export class CubeRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly read: PrismaReadService = prisma,
  ) {}

  /** The WHERE of a query: organization, window, sample, bots and filters. */
  private where(organizationId: string, w: ZonedWindow, f: AnalyticsFilters, sampleBits: number): Prisma.Sql {
    const parts: Prisma.Sql[] = [
      Prisma.sql`c.organization_id = ${organizationId}::uuid`,
      Prisma.sql`c.hour >= (${w.from}::date::timestamp AT TIME ZONE ${w.tz})`,
      Prisma.sql`c.hour < ((${w.to}::date + 1)::timestamp AT TIME ZONE ${w.tz})`,
    ];
    if (sampleBits > 0) parts.push(Prisma.sql`c.sample < ${CUBE_STRATA >> sampleBits}::smallint`);
    if (f.bots !== 'include') parts.push(Prisma.sql`NOT c.is_bot`);
    for (const [name, column] of Object.entries(COLUMN_FILTERS)) {
      const value = f[name as keyof typeof COLUMN_FILTERS];
      if (value !== undefined) parts.push(Prisma.sql`${Prisma.raw(`c.${column}`)} = ${value}`);
    }
    if (f.variant !== undefined) parts.push(Prisma.sql`c.variant_index = ${f.variant}::smallint`);
    if (f.rule !== undefined) parts.push(Prisma.sql`c.rule_index = ${f.rule}::smallint`);
    if (f.linkId?.length) parts.push(Prisma.sql`c.link_id = ANY(${f.linkId}::uuid[])`);
    const links: Prisma.Sql[] = [];
    if (f.projectId !== undefined) links.push(Prisma.sql`l.project_id = ${f.projectId}::uuid`);
    if (f.tag !== undefined) links.push(Prisma.sql`dl_lower_tags(l.tags) @> ARRAY[lower(${f.tag})]`);
    if (f.domain !== undefined) links.push(Prisma.sql`l.domain_name = lower(${f.domain})`);
    if (links.length) {
      parts.push(Prisma.sql`c.link_id IN (SELECT l.id FROM links l WHERE l.organization_id = ${organizationId}::uuid AND ${Prisma.join(links, ' AND ')})`);
    }
    return Prisma.join(parts, ' AND ');
  }

  /**
   * Clicks and visitors per local day, and the top `limit` of each breakdown, over the window's
   * filtered clicks of a 1/2^sampleBits sample of visitors (0: all of them; the caller scales).
   */
  async breakdowns(
    organizationId: string,
    w: ZonedWindow,
    f: AnalyticsFilters,
    breakdowns: readonly Breakdown[],
    limit: number,
    sampleBits = 0,
  ): Promise<CubeAnswer> {
    const sets = [Prisma.sql`(c.hour)`, ...breakdowns.map((b) => Prisma.sql`(${Prisma.raw(BREAKDOWNS[b].map((col) => `c.${col}`).join(', '))})`)];
    const columns = GROUP_COLUMNS.filter((col) => col === 'hour' || breakdowns.some((b) => (BREAKDOWNS[b] as readonly string[]).includes(col)));
    const select = Prisma.raw(columns.map((col) => (col === 'hour' ? 'c.hour' : `c.${col}::text AS ${col}`)).join(', '));
    const grouping = Prisma.raw(`GROUPING(${columns.map((col) => `c.${col}`).join(', ')})`);
    const dayMask = groupingMask(columns, ['hour']);
    const rows = await this.read.$queryRaw<Array<CubeGroup & { g: number; day: string | null }>>`
      WITH g AS (
        SELECT ${grouping} AS g, ${select}, sum(c.clicks)::int AS clicks, sum(c.visitors)::int AS visitors
        FROM click_cube c
        WHERE ${this.where(organizationId, w, f, sampleBits)}
        GROUP BY GROUPING SETS (${Prisma.join(sets)})
      )
      SELECT ${dayMask}::int AS g, to_char(g.hour AT TIME ZONE ${w.tz}, 'YYYY-MM-DD') AS day,
        sum(g.clicks)::int AS clicks, sum(g.visitors)::int AS visitors, ${Prisma.raw(columns.filter((c) => c !== 'hour').map((c) => `NULL::text AS ${c}`).join(', ') || 'NULL AS none')}
      FROM g WHERE g.g = ${dayMask} GROUP BY 2
      UNION ALL
      SELECT r.g, NULL, r.clicks, r.visitors, ${Prisma.raw(columns.filter((c) => c !== 'hour').map((c) => `r.${c}`).join(', ') || 'NULL')}
      FROM (SELECT g.*, row_number() OVER (PARTITION BY g.g ORDER BY g.clicks DESC) AS rn FROM g WHERE g.g <> ${dayMask}) r
      WHERE r.rn <= ${limit}`;
    const masks = new Map(breakdowns.map((b) => [groupingMask(columns, BREAKDOWNS[b]), b]));
    const answer: CubeAnswer = { days: [], lists: {} };
    for (const r of rows) {
      if (r.day !== null && r.g === dayMask) {
        answer.days.push({ day: r.day, clicks: r.clicks, visitors: r.visitors });
        continue;
      }
      const b = masks.get(r.g);
      if (b) (answer.lists[b] ??= []).push(r);
    }
    return answer;
  }

  /** Clicks and visitors over the window's filtered clicks (of a 1/2^sampleBits sample of visitors). */
  async totals(organizationId: string, w: ZonedWindow, f: AnalyticsFilters, sampleBits = 0): Promise<{ clicks: number; visitors: number }> {
    const [row] = await this.read.$queryRaw<Array<{ clicks: number; visitors: number }>>`
      SELECT coalesce(sum(c.clicks), 0)::int AS clicks, coalesce(sum(c.visitors), 0)::int AS visitors
      FROM click_cube c WHERE ${this.where(organizationId, w, f, sampleBits)}`;
    return row;
  }

  /**
   * click_cube_state.rolled_before as the last daily answer saw it. It only moves forward, so it is
   * a lower bound that tells the planner how few cube hours the tail holds, without a round trip.
   */
  private rolledBeforeSeen?: Date;

  /**
   * The unfiltered answer (bots left out unless `bots`) over a window of whole UTC days, exact,
   * from click_cube_daily: month rows for the whole months inside the window and for the month of
   * `to` when the window holds its first day (`dailySplit`), day rows for the other days and for
   * clicksByDate and the previous window, and the cube's hours the roll-up does not hold yet (from
   * click_cube_state.rolled_before), read in one statement so each hour is counted once. The
   * same lists and days as `breakdowns` with DAILY_BREAKDOWNS, the totals of `previous`, and the
   * listed links that exist (as `links` answers).
   */
  async dailyBreakdowns(
    organizationId: string,
    w: ZonedWindow,
    previous: ZonedWindow,
    bots: boolean,
    limit: number,
  ): Promise<{ answer: CubeAnswer; previous: { clicks: number; visitors: number }; links: Array<{ id: string; shortCode: string; title: string | null }> }> {
    const bounds = UTC_DAY_ZONES.has(w.tz) ? utcBounds(w, previous) : await this.zonedBounds(w, previous);
    let hint = this.rolledBeforeSeen ?? (await this.read.$queryRaw<Array<{ w: Date }>>`SELECT rolled_before AS w FROM click_cube_state`)[0]?.w;
    let rows = await this.dailyRows(organizationId, bounds, bots, limit, hint ?? new Date(0));
    let seen = rows.find((r) => r.dimension === -1)?.rolledBefore ?? undefined;
    if (seen && hint && seen < hint) {
      // rolled_before moved back (tests and operators do that): the tail missed hours from it.
      hint = seen;
      rows = await this.dailyRows(organizationId, bounds, bots, limit, hint);
      seen = rows.find((r) => r.dimension === -1)?.rolledBefore ?? undefined;
    }
    this.rolledBeforeSeen = seen;
    const answer: CubeAnswer = { days: [], lists: {} };
    const prev = { clicks: 0, visitors: 0 };
    const links: Array<{ id: string; shortCode: string; title: string | null }> = [];
    for (const r of rows) {
      if (r.dimension < 0) continue;
      if (r.dimension === 0) {
        if (r.day === null) Object.assign(prev, { clicks: r.clicks, visitors: r.visitors });
        else answer.days.push({ day: r.day, clicks: r.clicks, visitors: r.visitors });
        continue;
      }
      const b = DAILY_BREAKDOWNS[r.dimension - 1];
      const keys = [r.k1, r.k2, r.k3];
      const group: CubeGroup = { clicks: r.clicks, visitors: r.visitors };
      BREAKDOWNS[b].forEach((col, i) => (group[col] = keys[i]));
      (answer.lists[b] ??= []).push(group);
      if (b === 'link' && r.k1 && r.shortCode !== null) links.push({ id: r.k1, shortCode: r.shortCode, title: r.title });
    }
    answer.days.sort((a, b) => (a.day < b.day ? -1 : 1));
    return { answer, previous: prev, links };
  }

  /** A window's bounds in a zone whose days are not UTC days, as Postgres reads the zone (the cube's days are its). */
  private async zonedBounds(w: ZonedWindow, previous: ZonedWindow): Promise<DailyBounds> {
    const [row] = await this.read.$queryRaw<Array<{ start: Date; end: Date; previous: Date }>>`
      SELECT (${w.from}::date::timestamp AT TIME ZONE ${w.tz}) AS start, ((${w.to}::date + 1)::timestamp AT TIME ZONE ${w.tz}) AS end,
        (${previous.from}::date::timestamp AT TIME ZONE ${previous.tz}) AS previous`;
    return { tz: w.tz, from: w.from, start: row.start, end: row.end, previousStart: row.previous, whole: wholeUtcDays(row.start, row.end) };
  }

  /** dailyBreakdowns' statement, with `hint` at most rolled_before; its rows and rolled_before (dimension -1). */
  private dailyRows(organizationId: string, b: DailyBounds, bots: boolean, limit: number, hint: Date): Promise<DailyRow[]> {
    const isBot = bots ? [false, true] : [false];
    const utcDays = UTC_DAY_ZONES.has(b.tz);
    const rolledBefore = Prisma.sql`(SELECT s.rolled_before FROM click_cube_state s)`;
    // Each read one index range per bot flag and breakdown (the key leads with them).
    const daily = (month: boolean, dimensions: number[], from: string, to: string, when = Prisma.empty) => Prisma.sql`
      SELECT d.dimension, d.day, d.k1, d.k2, d.k3, d.clicks, d.visitors FROM click_cube_daily d
      WHERE d.organization_id = ${organizationId}::uuid AND d.is_month = ${month} AND d.is_bot = ANY(${isBot}::boolean[])
        AND d.dimension = ANY(${dimensions}::smallint[]) AND d.day BETWEEN ${from}::date AND ${to}::date ${when}`;
    const lists = DAILY_BREAKDOWNS.map((_, i) => i + 1);
    // The days' totals (the window's and the previous window's): UTC days from the day rows, other zones' days from the hours.
    const parts = utcDays
      ? [daily(false, [0], isoDay(b.previousStart.getTime()), isoDay(b.end.getTime() - DAY_MS))]
      : [Prisma.sql`
      SELECT 0::smallint AS dimension, (h.hour AT TIME ZONE ${b.tz})::date AS day, NULL::text AS k1, NULL::text AS k2, NULL::text AS k3, h.clicks, h.visitors
      FROM click_cube_hourly h
      WHERE h.organization_id = ${organizationId}::uuid AND h.is_bot = ANY(${isBot}::boolean[]) AND h.hour >= ${b.previousStart} AND h.hour < ${b.end}`];
    // The lists: the whole UTC days from the day and month rows, the hours around them (edges) from the cube.
    const edges: Array<[Date, Date]> = [];
    if (b.whole) {
      const split = dailySplit(b.whole);
      const wholeEnd = Prisma.sql`((${b.whole.to}::date + 1)::timestamp AT TIME ZONE 'UTC')`;
      parts.push(...split.days.map((d) => daily(false, lists, d.from, d.to)));
      if (split.months) parts.push(daily(true, lists, split.months.from, split.months.to));
      if (split.openMonth) {
        // The month row holds the month's rolled hours, all inside the whole days unless they end
        // before rolled_before (a past window): then the month's days. One of the two reads nothing.
        parts.push(daily(true, lists, split.openMonth, split.openMonth, Prisma.sql`AND ${rolledBefore} <= ${wholeEnd}`));
        parts.push(daily(false, lists, split.openMonth, b.whole.to, Prisma.sql`AND ${rolledBefore} > ${wholeEnd}`));
      }
      const wholeStart = Date.parse(`${b.whole.from}T00:00:00Z`);
      const wholeStop = Date.parse(`${b.whole.to}T00:00:00Z`) + DAY_MS;
      if (b.start.getTime() < wholeStart) edges.push([b.start, new Date(wholeStart)]);
      if (wholeStop < b.end.getTime()) edges.push([new Date(wholeStop), b.end]);
    } else {
      edges.push([b.start, b.end]);
    }
    const inEdges = edges.map(([from, to]) => Prisma.sql`(c.hour >= ${from} AND c.hour < ${to})`);
    const inWindow = Prisma.join([Prisma.sql`c.hour >= ${rolledBefore}`, ...inEdges], ' OR ');
    const tail = Prisma.sql`(c.hour >= ${rolledBefore} AND c.hour >= ${hint}::timestamptz AND c.hour >= ${b.previousStart})`;
    return this.read.$queryRaw<DailyRow[]>`
      WITH r AS (
        ${Prisma.join(parts, ' UNION ALL ')}
        UNION ALL
        -- The cube's hours from rolled_before (every hour for the days' totals, the window's for the
        -- lists) and the window's edge hours before it (for the lists).
        SELECT ${CUBE_AS_DAILY.dimension}, (t.hour AT TIME ZONE ${b.tz})::date, ${CUBE_AS_DAILY.keys},
          CASE WHEN t.g = ${CUBE_AS_DAILY.hourMask} THEN t.clicks ELSE t.window_clicks END,
          CASE WHEN t.g = ${CUBE_AS_DAILY.hourMask} THEN t.visitors ELSE t.window_visitors END
        FROM (
          SELECT ${CUBE_AS_DAILY.grouping} AS g, ${CUBE_AS_DAILY.columns},
            sum(c.clicks) FILTER (WHERE c.hour >= ${rolledBefore})::int AS clicks, sum(c.visitors) FILTER (WHERE c.hour >= ${rolledBefore})::int AS visitors,
            sum(c.clicks) FILTER (WHERE c.hour >= ${b.start} AND (${inWindow}))::int AS window_clicks,
            sum(c.visitors) FILTER (WHERE c.hour >= ${b.start} AND (${inWindow}))::int AS window_visitors
          FROM click_cube c
          WHERE c.organization_id = ${organizationId}::uuid AND c.is_bot = ANY(${isBot}::boolean[]) AND c.hour < ${b.end}
            AND (${Prisma.join([tail, ...inEdges], ' OR ')})
          GROUP BY GROUPING SETS (${CUBE_AS_DAILY.sets})) t
        WHERE CASE WHEN t.g = ${CUBE_AS_DAILY.hourMask} THEN t.clicks ELSE t.window_clicks END IS NOT NULL
      )
      SELECT t.dimension, to_char(t.day, 'YYYY-MM-DD') AS day, t.k1, t.k2, t.k3, t.clicks, t.visitors,
        l.short_code AS "shortCode", l.title, NULL::timestamptz AS "rolledBefore"
      FROM (
        SELECT g.*, CASE WHEN g.dimension > 0 THEN row_number() OVER (PARTITION BY g.dimension ORDER BY g.clicks DESC, g.k1, g.k2, g.k3) END AS rn
        FROM (
          -- The window's days of the total (the previous window's as one row, day NULL), the values of the lists.
          SELECT r.dimension, CASE WHEN r.dimension = 0 AND r.day >= ${b.from}::date THEN r.day END AS day, r.k1, r.k2, r.k3,
            sum(r.clicks)::int AS clicks, sum(r.visitors)::int AS visitors
          FROM r GROUP BY 1, 2, 3, 4, 5) g) t
      LEFT JOIN LATERAL (
        SELECT l.short_code, l.title FROM links l
        WHERE l.organization_id = ${organizationId}::uuid AND l.id = CASE WHEN t.dimension = 1 THEN t.k1::uuid END) l ON true
      WHERE t.dimension = 0 OR t.rn <= ${limit}
      UNION ALL
      SELECT -1, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL, s.rolled_before FROM click_cube_state s`;
  }

  /** The organization's links among these ids, with what topLinks shows. */
  async links(organizationId: string, ids: string[]): Promise<Array<{ id: string; shortCode: string; title: string | null }>> {
    if (!ids.length) return [];
    return this.read.$queryRaw`
      SELECT l.id::text AS id, l.short_code AS "shortCode", l.title FROM links l
      WHERE l.organization_id = ${organizationId}::uuid AND l.id = ANY(${ids}::uuid[])`;
  }

  /**
   * Non-bot clicks of the organization (or of one of its links) over whole UTC days, from the daily
   * rollups (months inside the window from month rows, the days around them from day rows): how
   * large a window is, in a few rows per link.
   */
  async rolledUpClicks(organizationId: string, fromDay: string, toDay: string, linkId?: string): Promise<number> {
    const split = splitWindow({ from: fromDay, to: toDay });
    const parts = split.days.map((d) => Prisma.sql`(r.dimension = 'total' AND r.day BETWEEN ${d.from}::date AND ${d.to}::date)`);
    if (split.months) parts.push(Prisma.sql`(r.dimension = 'month:total' AND r.day BETWEEN ${split.months.from}::date AND ${split.months.to}::date)`);
    const [row] = await this.read.$queryRaw<Array<{ n: number }>>`
      SELECT coalesce(sum(r.clicks), 0)::bigint::float8 AS n FROM click_rollups r
      WHERE r.organization_id = ${organizationId}::uuid AND (${Prisma.join(parts, ' OR ')})
        AND (${linkId ?? null}::uuid IS NULL OR r.link_id = ${linkId ?? null}::uuid)`;
    return Number(row?.n ?? 0);
  }

}
