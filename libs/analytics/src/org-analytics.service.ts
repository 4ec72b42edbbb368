import { Injectable } from '@nestjs/common';
import { AnalyticsFiltersDto, dayCount, LinkAnalyticsQueryDto, OrgAnalyticsQueryDto } from './analytics-filters.dto';
import { DEFAULT_DAYS } from './analytics.dto';
import { DAY_MS, isoDay } from './analytics.repository';
import { LinkControlsRef, MAX_GEO_ITEMS, toLinkAnalyticsResponse } from './analytics.mapper';
import { LinkAnalyticsResponseDto } from './analytics-response.dto';
import { ZonedWindow } from './cube-daily';
import { Breakdown, CubeAnswer, CubeRepository, DAILY_BREAKDOWNS } from './cube.repository';
import { cubeDimensions, toOrgAnalyticsResponse, windowDays } from './org-analytics.mapper';
import { OrgAnalyticsResponseDto } from './org-analytics-response.dto';

/** Items per list of the organization-wide view. */
export const ORG_LIST_LIMIT = 50;
/**
 * Clicks a window may hold for an exact answer: above it, the view reads the largest visitor
 * sample (1/2, 1/4 … 1/256 of visitors, by their hash) that holds at most this many, and scales
 * the counts (docs/analytics-storage.md, "Sampling").
 */
export const EXACT_MAX_CLICKS = 50_000;
const MAX_SAMPLE_BITS = 8;
const shiftDay = (day: string, days: number) => isoDay(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** A date formatter per time zone: building one costs far more than formatting with it. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(tz: string, now: Date): string {
  let format = dayFormats.get(tz);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(tz, format);
  }
  return format.format(now);
}

/** The query's window in its zone: `from`/`to`, else the `days` days up to and including today there. */
export function zonedWindow(q: Pick<OrgAnalyticsQueryDto, 'days' | 'from' | 'to' | 'tz'>, now: Date): ZonedWindow {
  const tz = q.tz ?? 'UTC';
  if (q.from && q.to) return { from: q.from, to: q.to, tz };
  const to = todayIn(tz, now);
  return { from: shiftDay(to, -((q.days ?? DEFAULT_DAYS) - 1)), to, tz };
}

/** The window of the same length just before. */
export function previousWindow(w: ZonedWindow): ZonedWindow {
  const length = dayCount(w.from, w.to);
  return { from: shiftDay(w.from, -length), to: shiftDay(w.from, -1), tz: w.tz };
}

/** Sample bits for a window of about `clicks` clicks: 0 (exact) up to 8 (1/256 of visitors). */
export function sampleBitsFor(clicks: number, exactMax: number): number {
  let bits = 0;
  while (bits < MAX_SAMPLE_BITS && clicks / 2 ** bits > exactMax) bits++;
  return bits;
}

/** Every filter of the view (bots and tz are not filters of the rolled-up lists). */
const FILTERS: Record<Exclude<keyof AnalyticsFiltersDto, 'bots' | 'tz'>, true> = {
  linkId: true, projectId: true, tag: true, domain: true, country: true, city: true, device: true, os: true, browser: true,
  referrerHost: true, utmSource: true, utmMedium: true, utmCampaign: true, variant: true, rule: true,
};

/**
 * Whether the daily roll-up answers the query (docs/analytics-storage.md): no filter, in any zone
 * (another zone's days are sums of the hourly totals, its lists the roll-up's whole UTC days and
 * the cube's hours at the window's edges). Such an answer is exact at any size.
 */
export function dailyAnswers(query: AnalyticsFiltersDto): boolean {
  return Object.keys(FILTERS).every((name) => {
    const value = query[name as keyof typeof FILTERS];
    return value === undefined || (Array.isArray(value) && value.length === 0);
  });
}

const LINK_BREAKDOWNS: Breakdown[] = ['country', 'region', 'city', 'timezone', 'device', 'platform', 'variant', 'rule'];
/** The view's lists: the breakdowns the daily roll-up holds. */
const ORG_BREAKDOWNS: readonly Breakdown[] = DAILY_BREAKDOWNS;

/** The organization-wide view (decisions §24), from the click cube. */
@Injectable()
export class OrgAnalyticsService {
  /** See EXACT_MAX_CLICKS (tests and benches set it). */
  exactMaxClicks = EXACT_MAX_CLICKS;

  constructor(private readonly cube: CubeRepository) {}

  /** How many visitor-sample bits a window of the organization (or of one link) needs. */
  async sampleBits(organizationId: string, w: ZonedWindow, prev?: ZonedWindow, linkId?: string): Promise<number> {
    const clicks = await this.cube.rolledUpClicks(organizationId, shiftDay((prev ?? w).from, -1), shiftDay(w.to, 1), linkId);
    return sampleBitsFor(prev ? clicks / 2 : clicks, this.exactMaxClicks);
  }

  async summary(organizationId: string, query: OrgAnalyticsQueryDto, now = new Date()): Promise<OrgAnalyticsResponseDto> {
    const w = zonedWindow(query, now);
    const prev = previousWindow(w);
    const filters: AnalyticsFiltersDto = query;
    if (dailyAnswers(filters)) {
      const { answer, previous, links } = await this.cube.dailyBreakdowns(organizationId, w, prev, filters.bots === 'include', ORG_LIST_LIMIT);
      return this.response(w, answer, previous, 1, links);
    }
    const bits = await this.sampleBits(organizationId, w, prev);
    const [answer, previous] = await Promise.all([
      this.cube.breakdowns(organizationId, w, filters, ORG_BREAKDOWNS, ORG_LIST_LIMIT, bits),
      this.cube.totals(organizationId, prev, filters, bits),
    ]);
    const linkIds = (answer.lists.link ?? []).map((r) => r.link_id).filter((id): id is string => !!id);
    return this.response(w, answer, previous, 2 ** bits, await this.cube.links(organizationId, linkIds));
  }

  private response(
    w: ZonedWindow,
    answer: CubeAnswer,
    previous: { clicks: number; visitors: number },
    scale: number,
    links: Array<{ id: string; shortCode: string; title: string | null }>,
  ): OrgAnalyticsResponseDto {
    return toOrgAnalyticsResponse({ answer, previous, days: windowDays(w.from, w.to), links: new Map(links.map((l) => [l.id, l])), scale });
  }

  /**
   * Link analytics (decisions §8) with filters or a time zone (§24): the same answer as from the
   * daily rollups, read from the cube. `controls` are the link's (it exists and is the organization's).
   */
  async linkSummary(
    organizationId: string,
    linkId: string,
    query: LinkAnalyticsQueryDto,
    controls: LinkControlsRef,
    now = new Date(),
  ): Promise<LinkAnalyticsResponseDto> {
    const w = zonedWindow(query, now);
    const bits = await this.sampleBits(organizationId, w, undefined, linkId);
    // The path's link, within any linkId filter: a filter without it selects nothing.
    const within = !query.linkId?.length || query.linkId.includes(linkId.toLowerCase());
    const filters: AnalyticsFiltersDto = { ...query, linkId: [linkId] };
    const answer = within
      ? await this.cube.breakdowns(organizationId, w, filters, LINK_BREAKDOWNS, MAX_GEO_ITEMS, bits)
      : { days: [], lists: {} };
    const scale = 2 ** bits;
    const byDay = new Map(answer.days.map((d) => [d.day, d.clicks * scale]));
    const uniques = answer.days.reduce((n, d) => n + d.visitors, 0) * scale;
    const clicksByDate = windowDays(w.from, w.to).map((date) => ({ date, clicks: byDay.get(date) ?? 0 }));
    return toLinkAnalyticsResponse(cubeDimensions(answer, scale), clicksByDate, uniques, controls);
  }
}
