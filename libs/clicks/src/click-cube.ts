import { EnrichedClick } from './enrich';
import { copyBytes, copyNumber, copyText } from './pg-encoding';
import { VisitorRow } from './rollups';

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

/** The start of a click's UTC hour, in ms. */
export function hourStart(ms: number): number {
  return ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS);
}

/** A cube row as a `click_cube` json record (dl_cube_daily_add's input). */
export type CubeRecord = Record<string, string | number | boolean | null>;

/**
 * The batch's cube rows as `COPY click_cube (CUBE_COLUMNS) FROM STDIN` text: one row per newly
 * inserted click (`clicks` 1), written straight from the click. Grouping equal rows in the worker
 * would cost a key string per click for little: under live traffic a batch rarely holds two clicks
 * of the same hour, link and dimensions, and readers sum rows anyway. `newVisitors` are the batch's
 * newly seen daily visitors (ClickWriteRepository.insertDailyVisitors): the first click of each of
 * them in the batch has `visitors` 1. Rows of an hour before `rolledBefore` (ms; hours the daily
 * roll-up already holds) are also pushed to `late` as records.
 */
export function cubeCopyBytes(
  clicks: readonly EnrichedClick[],
  newVisitors: readonly VisitorRow[],
  rolledBefore = -Infinity,
  late: CubeRecord[] = [],
): Buffer {
  const firstVisits = new Set<string>();
  for (const v of newVisitors) firstVisits.add(`${v.linkId}\u0000${v.day}\u0000${v.visitorHash}`);
  const hours = new Map<number, string>();
  return copyBytes(clicks, (c) => {
    const visitor = !c.isBot && firstVisits.size > 0 && firstVisits.delete(`${c.linkId}\u0000${c.day}\u0000${c.visitorHash}`) ? '1' : '0';
    const start = hourStart(c.clickedAt.getTime());
    let hour = hours.get(start);
    if (hour === undefined) hours.set(start, (hour = new Date(start).toISOString()));
    if (start < rolledBefore) late.push(cubeRecord(c, hour, visitor));
    return cubeCopyLine(c, hour, visitor);
  });
}

/** A click as a line of `COPY click_cube (CUBE_COLUMNS) FROM STDIN`. */
export function cubeCopyLine(c: EnrichedClick, hour: string, visitor: '0' | '1'): string {
  const t = copyText;
  return [
    c.organizationId, hour, c.linkId, c.isBot ? 't' : 'f', t(c.countryCode), t(c.region), t(c.city), t(c.timezone),
    t(c.deviceType), t(c.platform), t(c.os), t(c.browser), t(c.referrerHost), t(c.utmSource), t(c.utmMedium),
    t(c.utmCampaign), copyNumber(c.variantIndex), copyNumber(c.ruleIndex), String(cubeSample(c.visitorHash)), '1', `${visitor}\n`,
  ].join('\t');
}

/** The same row as cubeCopyLine, as a `click_cube` json record. */
export function cubeRecord(c: EnrichedClick, hour: string, visitor: '0' | '1'): CubeRecord {
  return {
    organization_id: c.organizationId, hour, link_id: c.linkId, is_bot: c.isBot, country_code: c.countryCode ?? null,
    region: c.region ?? null, city: c.city ?? null, timezone: c.timezone ?? null, device_type: c.deviceType ?? null,
    platform: c.platform ?? null, os: c.os ?? null, browser: c.browser ?? null, referrer_host: c.referrerHost ?? null,
    utm_source: c.utmSource ?? null, utm_medium: c.utmMedium ?? null, utm_campaign: c.utmCampaign ?? null,
    variant_index: c.variantIndex ?? null, rule_index: c.ruleIndex ?? null, sample: cubeSample(c.visitorHash), clicks: 1, visitors: Number(visitor),
  };
}
