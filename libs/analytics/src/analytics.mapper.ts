import { decodeRollupValue, RollupDimension } from '@dl/clicks';
import { countryName } from '@dl/platform/geo';
import { ShapeAgrees } from '@dl/platform/http';
import {
  ClickEventResponseDto,
  ClickExportRowDto,
  DateClicksDto,
  LinkAnalyticsResponseDto,
  OverviewResponseDto,
  ProjectAnalyticsResponseDto,
  TopLinkDto,
} from './analytics-response.dto';
import { ClickExportRecord, ClickRow, DimensionCount } from './analytics.repository';

/** Longest lists of regions and cities returned (the rest is a long tail). */
export const MAX_GEO_ITEMS = 100;

const byClicks = <T extends { clicks: number }>(key: (x: T) => string) => (a: T, b: T) =>
  b.clicks - a.clicks || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** One entry per day of the window, oldest first, zero-click days included. */
export function fillDays(days: string[], totals: Array<{ day: string; clicks: number }>): DateClicksDto[] {
  const byDay = new Map(totals.map((t) => [t.day, t.clicks]));
  return days.map((date) => ({ date, clicks: byDay.get(date) ?? 0 }));
}

/** Groups rollup counts by dimension. */
export function groupDimensions(rows: DimensionCount[]): Map<string, DimensionCount[]> {
  const out = new Map<string, DimensionCount[]>();
  for (const r of rows) {
    const list = out.get(r.dimension) ?? [];
    list.push(r);
    out.set(r.dimension, list);
  }
  return out;
}

const sum = (rows: DimensionCount[] | undefined) => (rows ?? []).reduce((s, r) => s + r.clicks, 0);

export function totalOf(dims: Map<string, DimensionCount[]>): number {
  return sum(dims.get(RollupDimension.total));
}

/** Sum of daily distinct visitors (the `visitors` rollup). */
export function dailyUniquesOf(dims: Map<string, DimensionCount[]>): number {
  return sum(dims.get(RollupDimension.visitors));
}

export function countriesOf(dims: Map<string, DimensionCount[]>) {
  return (dims.get(RollupDimension.country) ?? [])
    .filter((r) => r.value !== '')
    .map((r) => ({ countryCode: r.value, country: countryName(r.value), clicks: r.clicks }))
    .sort(byClicks((x) => x.countryCode));
}

export function devicesOf(dims: Map<string, DimensionCount[]>) {
  return (dims.get(RollupDimension.device) ?? []).map((r) => ({ device: r.value, clicks: r.clicks })).sort(byClicks((x) => x.device));
}

export function platformsOf(dims: Map<string, DimensionCount[]>) {
  return (dims.get(RollupDimension.platform) ?? []).map((r) => ({ platform: r.value, clicks: r.clicks })).sort(byClicks((x) => x.platform));
}

export function toLinkAnalyticsResponse(
  dims: Map<string, DimensionCount[]>,
  clicksByDate: DateClicksDto[],
  uniqueClicks: number,
  controls: LinkControlsRef = { variants: null, hasRules: false },
) {
  const regions = (dims.get(RollupDimension.region) ?? [])
    .map((r) => {
      const [countryCode, region] = decodeRollupValue(r.value);
      return { region: region ?? '', countryCode: countryCode ?? '', clicks: r.clicks };
    })
    .filter((r) => r.region !== '')
    .sort(byClicks((x) => `${x.countryCode}|${x.region}`))
    .slice(0, MAX_GEO_ITEMS);
  const cities = (dims.get(RollupDimension.city) ?? [])
    .map((r) => {
      const [countryCode, region, city] = decodeRollupValue(r.value);
      return { city: city ?? '', countryCode: countryCode ?? '', region: region ?? '', clicks: r.clicks };
    })
    .filter((r) => r.city !== '')
    .sort(byClicks((x) => `${x.countryCode}|${x.region}|${x.city}`))
    .slice(0, MAX_GEO_ITEMS);
  const timezones = (dims.get(RollupDimension.timezone) ?? [])
    .filter((r) => r.value !== '')
    .map((r) => ({ timezone: r.value, clicks: r.clicks }))
    .sort(byClicks((x) => x.timezone));
  return {
    totalClicks: totalOf(dims),
    uniqueClicks,
    clicksByDate,
    clicksByCountry: countriesOf(dims),
    clicksByCity: cities,
    clicksByRegion: regions,
    clicksByTimezone: timezones,
    clicksByDevice: devicesOf(dims),
    clicksByPlatform: platformsOf(dims),
    clicksByVariant: variantsOf(dims, controls.variants),
    clicksByRule: rulesOf(dims, controls.hasRules),
  };
}

/** What link analytics need of the link's controls (variant URLs; whether it has or had rules). */
export interface LinkControlsRef {
  variants: Array<{ url: string }> | null;
  hasRules: boolean;
}

/** Every current variant (0 clicks included), then any index recorded for variants since removed. */
function variantsOf(dims: Map<string, DimensionCount[]>, variants: Array<{ url: string }> | null): LinkAnalyticsResponseDto['clicksByVariant'] {
  const counts = new Map((dims.get(RollupDimension.variant) ?? []).map((r) => [Number(r.value), r.clicks]));
  const out: LinkAnalyticsResponseDto['clicksByVariant'] = (variants ?? []).map((v, i) => ({ variant: i, url: v.url, clicks: counts.get(i) ?? 0 }));
  for (const [i, clicks] of [...counts].sort((a, b) => a[0] - b[0])) if (!variants || i >= variants.length) out.push({ variant: i, url: null, clicks });
  return out;
}

/** Each rule that chose destinations, by index, then `rule: null` for the clicks no rule chose. */
function rulesOf(dims: Map<string, DimensionCount[]>, hasRules: boolean): LinkAnalyticsResponseDto['clicksByRule'] {
  const rows = (dims.get(RollupDimension.rule) ?? []).map((r) => ({ rule: Number(r.value) as number | null, clicks: r.clicks }));
  if (!hasRules && !rows.length) return [];
  rows.sort((a, b) => (a.rule as number) - (b.rule as number));
  const ruled = rows.reduce((n, r) => n + r.clicks, 0);
  rows.push({ rule: null, clicks: Math.max(0, totalOf(dims) - ruled) });
  return rows;
}

export function toProjectAnalyticsResponse(
  dims: Map<string, DimensionCount[]>,
  clicksByDate: DateClicksDto[],
  uniqueClicks: number,
) {
  return {
    totalClicks: totalOf(dims),
    uniqueClicks,
    clicksByDate,
    clicksByCountry: countriesOf(dims).map((c) => ({ country: c.country, clicks: c.clicks })),
    clicksByDevice: devicesOf(dims),
    clicksByPlatform: platformsOf(dims),
  };
}

export function toClickEventResponse(c: ClickRow) {
  return {
    id: c.id,
    linkId: c.linkId,
    clickedAt: c.clickedAt.toISOString(),
    ipAddress: c.ipAddress,
    userAgent: c.userAgent,
    deviceType: c.deviceType,
    platform: c.platform,
    browser: c.browser,
    browserVersion: c.browserVersion,
    os: c.os,
    osVersion: c.osVersion,
    countryCode: c.countryCode,
    countryName: c.countryName,
    region: c.region,
    city: c.city,
    timezone: c.timezone,
    latitude: c.latitude,
    longitude: c.longitude,
    utmSource: c.utmSource,
    utmMedium: c.utmMedium,
    utmCampaign: c.utmCampaign,
    utmTerm: c.utmTerm,
    utmContent: c.utmContent,
    referrer: c.referrer,
  };
}

/** One exported click: the click's fields plus what the edge decided. */
export function toClickExportRow(r: ClickExportRecord) {
  return { ...toClickEventResponse(r), isBot: r.isBot, variantIndex: r.variantIndex, ruleIndex: r.ruleIndex };
}

/** The organization's overview: link counts, click totals, the days of the window and the top links. */
export function toOverviewResponse(
  links: { total: number; active: number },
  dims: Map<string, DimensionCount[]>,
  clicksByDate: DateClicksDto[],
  uniqueClicks: number,
  topLinks: TopLinkDto[],
) {
  return {
    totalLinks: links.total,
    activeLinks: links.active,
    totalClicks: totalOf(dims),
    uniqueClicks,
    clicksToday: clicksByDate[clicksByDate.length - 1]?.clicks ?? 0,
    clicksByDate,
    topLinks,
  };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const ANALYTICS_SHAPES_AGREE: [
  ShapeAgrees<LinkAnalyticsResponseDto, ReturnType<typeof toLinkAnalyticsResponse>>,
  ShapeAgrees<ProjectAnalyticsResponseDto, ReturnType<typeof toProjectAnalyticsResponse>>,
  ShapeAgrees<OverviewResponseDto, ReturnType<typeof toOverviewResponse>>,
  ShapeAgrees<ClickEventResponseDto, ReturnType<typeof toClickEventResponse>>,
  ShapeAgrees<ClickExportRowDto, ReturnType<typeof toClickExportRow>>,
] = [true, true, true, true, true];
