import { EnrichedClick } from './enrich';
import { encodeRollupValue, MONTHLY_DIMENSIONS, monthDimension, RollupDimension } from './rollup-dimensions';

export interface RollupRow {
  organizationId: string;
  linkId: string;
  /** YYYY-MM-DD */
  day: string;
  /** A RollupDimension, or `month:<dimension>` for month rows (day = the month's first day). */
  dimension: string;
  value: string;
  clicks: number;
}

const MONTHLY = new Set<string>(MONTHLY_DIMENSIONS);

export interface VisitorRow {
  organizationId: string;
  linkId: string;
  day: string;
  visitorHash: string;
}

/** The `source` dimension: referrer host, else utm_source, else Direct. */
export function sourceOf(click: Pick<EnrichedClick, 'referrerHost' | 'utmSource'>): string {
  return click.referrerHost || click.utmSource || 'Direct';
}

/**
 * Calls `add(dimension, value, into)` for each (dimension, value) pair one click adds to its
 * day's rollups. Bots count only under `bot`. A callback rather than a list: no array of pairs
 * is allocated per click on the worker's hot path.
 */
export function eachRollupKey<C>(click: EnrichedClick, add: (dimension: RollupDimension, value: string, into: C) => void, into: C): void {
  if (click.isBot) return add(RollupDimension.bot, '', into);
  add(RollupDimension.total, '', into);
  add(RollupDimension.country, click.countryCode ?? '', into);
  add(RollupDimension.timezone, click.timezone ?? '', into);
  add(RollupDimension.device, click.deviceType, into);
  add(RollupDimension.platform, click.platform ?? 'Other', into);
  add(RollupDimension.browser, click.browser ?? 'Other', into);
  add(RollupDimension.os, click.os ?? 'Other', into);
  add(RollupDimension.source, sourceOf(click), into);
  if (click.variantIndex !== null) add(RollupDimension.variant, String(click.variantIndex), into);
  if (click.ruleIndex !== null) add(RollupDimension.rule, String(click.ruleIndex), into);
  if (click.region) add(RollupDimension.region, encodeRollupValue(click.countryCode, click.region), into);
  if (click.city) add(RollupDimension.city, encodeRollupValue(click.countryCode, click.region, click.city), into);
}

/** Counts of one (link, day): dimension → value → clicks. */
interface RollupGroup {
  organizationId: string;
  linkId: string;
  day: string;
  counts: Map<string, Map<string, number>>;
}

function count(group: RollupGroup, dimension: string, value: string, n: number): void {
  let values = group.counts.get(dimension);
  if (!values) group.counts.set(dimension, (values = new Map()));
  values.set(value, (values.get(value) ?? 0) + n);
}

const countOne = (dimension: string, value: string, group: RollupGroup) => count(group, dimension, value, 1);

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Aggregates clicks (and newly seen daily visitors) into one row per
 * (link, day, dimension, value), sorted by (link, day, dimension, value) so
 * concurrent batches lock rows in the same order (no deadlocks).
 *
 * Grouped per (link, day) first, then counted in small per-group maps keyed by
 * the dimension and value strings themselves (no composite key string built per
 * click and dimension, which would dominate the rollup's CPU); month rows are
 * summed from the day groups.
 */
export function buildRollupRows(clicks: EnrichedClick[], newVisitors: VisitorRow[] = []): RollupRow[] {
  // link id → day → group: two lookups instead of a key string built per click.
  const days = new Map<string, Map<string, RollupGroup>>();
  const group = (organizationId: string, linkId: string, day: string, into = days): RollupGroup => {
    let byDay = into.get(linkId);
    if (!byDay) into.set(linkId, (byDay = new Map()));
    let g = byDay.get(day);
    if (!g) byDay.set(day, (g = { organizationId, linkId, day, counts: new Map() }));
    return g;
  };
  for (const c of clicks) eachRollupKey(c, countOne, group(c.organizationId, c.linkId, c.day));
  for (const v of newVisitors) count(group(v.organizationId, v.linkId, v.day), RollupDimension.visitors, '', 1);

  const dayGroups = [...days.values()].flatMap((byDay) => [...byDay.values()]);
  const months = new Map<string, Map<string, RollupGroup>>();
  for (const g of dayGroups) {
    const m = group(g.organizationId, g.linkId, `${g.day.slice(0, 7)}-01`, months);
    for (const [dimension, values] of g.counts) {
      if (!MONTHLY.has(dimension)) continue;
      for (const [value, n] of values) count(m, monthDimension(dimension as RollupDimension), value, n);
    }
  }

  const rows: RollupRow[] = [];
  for (const g of [...dayGroups, ...[...months.values()].flatMap((byMonth) => [...byMonth.values()])]) {
    for (const [dimension, values] of g.counts) {
      for (const [value, clicks] of values) {
        rows.push({ organizationId: g.organizationId, linkId: g.linkId, day: g.day, dimension, value, clicks });
      }
    }
  }
  return rows.sort(
    (a, b) => compareText(a.linkId, b.linkId) || compareText(a.day, b.day) || compareText(a.dimension, b.dimension) || compareText(a.value, b.value),
  );
}

/** Distinct (link, day, visitor) of the non-bot clicks, sorted. */
export function buildVisitorRows(clicks: EnrichedClick[]): VisitorRow[] {
  const rows = new Map<string, VisitorRow>();
  for (const c of clicks) {
    if (c.isBot) continue;
    const key = `${c.linkId}\u0000${c.day}\u0000${c.visitorHash}`;
    if (!rows.has(key)) rows.set(key, { organizationId: c.organizationId, linkId: c.linkId, day: c.day, visitorHash: c.visitorHash });
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** Non-bot clicks per link, sorted by link id. */
export function linkClickCounts(clicks: EnrichedClick[]): Array<{ linkId: string; clicks: number }> {
  const counts = new Map<string, number>();
  for (const c of clicks) if (!c.isBot) counts.set(c.linkId, (counts.get(c.linkId) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([linkId, n]) => ({ linkId, clicks: n }));
}
