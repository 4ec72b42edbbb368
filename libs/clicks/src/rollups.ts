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

/** The (dimension, value) pairs one click adds to its day's rollups. Bots count only under `bot`. */
export function rollupKeys(click: EnrichedClick): Array<[RollupDimension, string]> {
  if (click.isBot) return [[RollupDimension.bot, '']];
  const keys: Array<[RollupDimension, string]> = [
    [RollupDimension.total, ''],
    [RollupDimension.country, click.countryCode ?? ''],
    [RollupDimension.timezone, click.timezone ?? ''],
    [RollupDimension.device, click.deviceType],
    [RollupDimension.platform, click.platform ?? 'Other'],
    [RollupDimension.browser, click.browser ?? 'Other'],
    [RollupDimension.os, click.os ?? 'Other'],
    [RollupDimension.source, sourceOf(click)],
  ];
  if (click.region) keys.push([RollupDimension.region, encodeRollupValue(click.countryCode, click.region)]);
  if (click.city) keys.push([RollupDimension.city, encodeRollupValue(click.countryCode, click.region, click.city)]);
  return keys;
}

/**
 * Aggregates clicks (and newly seen daily visitors) into one row per
 * (link, day, dimension, value), sorted by key so concurrent batches lock rows
 * in the same order (no deadlocks).
 */
export function buildRollupRows(clicks: EnrichedClick[], newVisitors: VisitorRow[] = []): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  const put = (organizationId: string, linkId: string, day: string, dimension: string, value: string, n: number) => {
    const key = `${linkId}\u0000${day}\u0000${dimension}\u0000${value}`;
    const row = rows.get(key);
    if (row) row.clicks += n;
    else rows.set(key, { organizationId, linkId, day, dimension, value, clicks: n });
  };
  const add = (organizationId: string, linkId: string, day: string, dimension: RollupDimension, value: string, n: number) => {
    put(organizationId, linkId, day, dimension, value, n);
    if (MONTHLY.has(dimension)) put(organizationId, linkId, `${day.slice(0, 7)}-01`, monthDimension(dimension), value, n);
  };
  for (const c of clicks) {
    for (const [dimension, value] of rollupKeys(c)) add(c.organizationId, c.linkId, c.day, dimension, value, 1);
  }
  for (const v of newVisitors) add(v.organizationId, v.linkId, v.day, RollupDimension.visitors, '', 1);
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
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
