import { encodeRollupValue, RollupDimension } from '@dl/clicks';
import { countryName } from '@dl/platform/geo';
import { DimensionCount } from './analytics.repository';
import { ShapeAgrees } from '@dl/platform/http';
import { CubeAnswer, CubeGroup } from './cube.repository';
import { OrgAnalyticsResponseDto, WindowTotalsDto } from './org-analytics-response.dto';

const byClicks = <T extends { clicks: number }>(key: (x: T) => string) => (a: T, b: T) =>
  b.clicks - a.clicks || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** The window's local days, oldest first. */
export function windowDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** A list of one column's known values (unknown left out), largest first. */
function values(rows: CubeGroup[] | undefined, column: keyof CubeGroup, scale: number) {
  return (rows ?? [])
    .filter((r) => r[column] !== null && r[column] !== undefined && r[column] !== '')
    .map((r) => ({ value: String(r[column]), clicks: r.clicks * scale }))
    .sort(byClicks((x) => x.value));
}

export interface OrgAnswerParts {
  answer: CubeAnswer;
  previous: { clicks: number; visitors: number };
  days: string[];
  links: Map<string, { shortCode: string; title: string | null }>;
  /** 2^sampleBits: what a sampled count stands for. */
  scale: number;
}

export function toOrgAnalyticsResponse({ answer, previous, days, links, scale }: OrgAnswerParts) {
  const byDay = new Map(answer.days.map((d) => [d.day, d]));
  const totals = answer.days.reduce((s, d) => ({ clicks: s.clicks + d.clicks, visitors: s.visitors + d.visitors }), { clicks: 0, visitors: 0 });
  const lists = answer.lists;
  const prev: WindowTotalsDto = { totalClicks: previous.clicks * scale, uniqueClicks: previous.visitors * scale };
  return {
    totalClicks: totals.clicks * scale,
    uniqueClicks: totals.visitors * scale,
    previous: prev,
    clicksByDate: days.map((date) => ({ date, clicks: (byDay.get(date)?.clicks ?? 0) * scale })),
    topLinks: (lists.link ?? [])
      .filter((r) => r.link_id && links.has(r.link_id))
      .map((r) => ({ linkId: r.link_id!, shortCode: links.get(r.link_id!)!.shortCode, title: links.get(r.link_id!)!.title, clicks: r.clicks * scale }))
      .sort(byClicks((x) => x.shortCode)),
    clicksByCountry: values(lists.country, 'country_code', scale)
      .map((v) => ({ countryCode: v.value, country: countryName(v.value), clicks: v.clicks }))
      .sort(byClicks((x) => x.countryCode)),
    clicksByCity: (lists.city ?? [])
      .filter((r) => r.city)
      .map((r) => ({ city: r.city!, countryCode: r.country_code ?? '', region: r.region ?? '', clicks: r.clicks * scale }))
      .sort(byClicks((x) => `${x.countryCode}|${x.region}|${x.city}`)),
    clicksByDevice: values(lists.device, 'device_type', scale).map((v) => ({ device: v.value, clicks: v.clicks })),
    clicksByOs: values(lists.os, 'os', scale),
    clicksByBrowser: values(lists.browser, 'browser', scale),
    clicksByReferrer: values(lists.referrer, 'referrer_host', scale),
    clicksByUtmSource: values(lists.utmSource, 'utm_source', scale),
    clicksByUtmMedium: values(lists.utmMedium, 'utm_medium', scale),
    clicksByUtmCampaign: values(lists.utmCampaign, 'utm_campaign', scale),
  };
}

/**
 * A cube answer as rollup counts (dimension, value in the rollups' encoding, clicks), so link
 * analytics from the cube go through the same mapper as from the daily rollups.
 */
export function cubeDimensions(answer: CubeAnswer, scale: number): Map<string, DimensionCount[]> {
  const dims = new Map<string, DimensionCount[]>();
  const add = (dimension: string, value: string, clicks: number) => {
    const list = dims.get(dimension) ?? [];
    list.push({ dimension, value, clicks: clicks * scale });
    dims.set(dimension, list);
  };
  add(RollupDimension.total, '', answer.days.reduce((n, d) => n + d.clicks, 0));
  const l = answer.lists;
  for (const r of l.country ?? []) add(RollupDimension.country, r.country_code ?? '', r.clicks);
  for (const r of l.region ?? []) if (r.region) add(RollupDimension.region, encodeRollupValue(r.country_code, r.region), r.clicks);
  for (const r of l.city ?? []) if (r.city) add(RollupDimension.city, encodeRollupValue(r.country_code, r.region, r.city), r.clicks);
  for (const r of l.timezone ?? []) add(RollupDimension.timezone, r.timezone ?? '', r.clicks);
  for (const r of l.device ?? []) add(RollupDimension.device, r.device_type ?? 'desktop', r.clicks);
  for (const r of l.platform ?? []) add(RollupDimension.platform, r.platform ?? 'Other', r.clicks);
  for (const r of l.variant ?? []) if (r.variant_index !== null && r.variant_index !== undefined) add(RollupDimension.variant, r.variant_index, r.clicks);
  for (const r of l.rule ?? []) if (r.rule_index !== null && r.rule_index !== undefined) add(RollupDimension.rule, r.rule_index, r.clicks);
  return dims;
}

/** Compile-time agreement of the mapper with its response class (see ShapeAgrees). */
export const ORG_ANALYTICS_SHAPE_AGREES: ShapeAgrees<OrgAnalyticsResponseDto, ReturnType<typeof toOrgAnalyticsResponse>> = true;
