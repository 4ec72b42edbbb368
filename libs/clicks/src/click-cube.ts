import { EnrichedClick } from './enrich';
import { copyNumber, copyText } from './pg-encoding';
import { VisitorRow } from './rollups';

/**
 * A row of `click_cube` (docs/analytics-storage.md): the clicks of one UTC hour that share every
 * dimension the organization-wide view filters or breaks down by. Rows are appended per batch,
 * aggregated within the batch; readers sum.
 */
export interface CubeRow {
  organizationId: string;
  /** The UTC hour's start, ISO 8601. */
  hour: string;
  linkId: string;
  isBot: boolean;
  countryCode: string | null;
  region: string | null;
  city: string | null;
  timezone: string | null;
  deviceType: string | null;
  platform: string | null;
  os: string | null;
  browser: string | null;
  referrerHost: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  variantIndex: number | null;
  ruleIndex: number | null;
  /** The visitor's sample stratum (cubeSample). */
  sample: number;
  clicks: number;
  /** Clicks that were their visitor's first on the link that UTC day (a newly seen daily visitor). */
  visitors: number;
}

/** The columns of `click_cube` a batch writes, in cubeCopyLine's order. */
export const CUBE_COLUMNS = `organization_id, hour, link_id, is_bot, country_code, region, city, timezone, device_type, platform,
  os, browser, referrer_host, utm_source, utm_medium, utm_campaign, variant_index, rule_index, sample, clicks, visitors`;

/** Strata of `click_cube.sample`: a 1/2^k sample of visitors is `sample < CUBE_STRATA / 2^k`. */
export const CUBE_STRATA = 256;

/** A visitor hash's stratum: its first byte (the migration's dl_cube_sample). */
export function cubeSample(visitorHash: string): number {
  return parseInt(visitorHash.slice(0, 2), 16) || 0;
}

const HOUR_MS = 3_600_000;

/** The UTC hour of a click, as ISO text (hours repeat within a batch: cached per start). */
function hourOf(c: EnrichedClick, cache: Map<number, string>): string {
  const start = c.clickedAt.getTime() - (((c.clickedAt.getTime() % HOUR_MS) + HOUR_MS) % HOUR_MS);
  let iso = cache.get(start);
  if (iso === undefined) cache.set(start, (iso = new Date(start).toISOString()));
  return iso;
}

const N = '\u0001';

/**
 * The batch's cube rows: its newly inserted clicks grouped by (organization, hour, link and every
 * dimension). `newVisitors` are the batch's newly seen daily visitors (ClickWriteRepository
 * .insertDailyVisitors): the first click of each of them in the batch counts one visitor.
 */
export function buildCubeRows(clicks: readonly EnrichedClick[], newVisitors: readonly VisitorRow[]): CubeRow[] {
  const firstVisits = new Set<string>();
  for (const v of newVisitors) firstVisits.add(`${v.linkId}\u0000${v.day}\u0000${v.visitorHash}`);
  const hours = new Map<number, string>();
  const rows = new Map<string, CubeRow>();
  for (const c of clicks) {
    const hour = hourOf(c, hours);
    let visitor = 0;
    if (!c.isBot && firstVisits.size) {
      const key = `${c.linkId}\u0000${c.day}\u0000${c.visitorHash}`;
      if (firstVisits.delete(key)) visitor = 1;
    }
    // One flat string per click (no array of parts): \u0001 stands for null, \u0000 separates.
    const key = `${c.organizationId}${hour}${c.linkId}${c.isBot ? 't' : 'f'}${c.deviceType}\u0000${c.countryCode ?? N}\u0000${c.region ?? N}\u0000${
      c.city ?? N}\u0000${c.timezone ?? N}\u0000${c.platform ?? N}\u0000${c.os ?? N}\u0000${c.browser ?? N}\u0000${c.referrerHost ?? N}\u0000${
      c.utmSource ?? N}\u0000${c.utmMedium ?? N}\u0000${c.utmCampaign ?? N}\u0000${c.variantIndex ?? N}\u0000${c.ruleIndex ?? N}`;
    const row = rows.get(key);
    if (row) {
      row.clicks++;
      row.visitors += visitor;
      continue;
    }
    rows.set(key, {
      organizationId: c.organizationId,
      hour,
      linkId: c.linkId,
      isBot: c.isBot,
      countryCode: c.countryCode,
      region: c.region,
      city: c.city,
      timezone: c.timezone,
      deviceType: c.deviceType,
      platform: c.platform,
      os: c.os,
      browser: c.browser,
      referrerHost: c.referrerHost,
      utmSource: c.utmSource,
      utmMedium: c.utmMedium,
      utmCampaign: c.utmCampaign,
      variantIndex: c.variantIndex,
      ruleIndex: c.ruleIndex,
      sample: cubeSample(c.visitorHash),
      clicks: 1,
      visitors: visitor,
    });
  }
  return [...rows.values()];
}

/** A cube row as a line of `COPY click_cube (CUBE_COLUMNS) FROM STDIN`. */
export function cubeCopyLine(r: CubeRow): string {
  const t = copyText;
  return [
    r.organizationId, r.hour, r.linkId, r.isBot ? 't' : 'f', t(r.countryCode), t(r.region), t(r.city), t(r.timezone),
    t(r.deviceType), t(r.platform), t(r.os), t(r.browser), t(r.referrerHost), t(r.utmSource), t(r.utmMedium),
    t(r.utmCampaign), copyNumber(r.variantIndex), copyNumber(r.ruleIndex), String(r.sample), String(r.clicks), `${r.visitors}\n`,
  ].join('\t');
}
