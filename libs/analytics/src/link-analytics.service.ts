import { Injectable } from '@nestjs/common';
import { RollupDimension } from '@dl/clicks';
import { DEFAULT_CLICK_LIMIT, DEFAULT_DAYS } from './analytics.dto';
import { AnalyticsLinkNotFoundError, AnalyticsProjectNotFoundError } from './analytics.errors';
import {
  dailyUniquesOf,
  fillDays,
  groupDimensions,
  toClickEventResponse,
  toLinkAnalyticsResponse,
  toProjectAnalyticsResponse,
  totalOf,
} from './analytics.mapper';
import { AnalyticsRepository, AnalyticsScope, DayWindow } from './analytics.repository';
import {
  ClickEventResponse,
  LinkAnalyticsResponse,
  OverviewResponse,
  ProjectAnalyticsResponse,
} from './analytics.types';

/**
 * Windows up to this many days count unique clicks exactly (distinct visitor
 * hashes of `click_daily_visitors`); longer windows add up daily unique visitors
 * (the `visitors` rollup), so a 365-day summary never scans a year of visitors.
 * See docs/decisions.md, "Clicks and analytics".
 */
export const EXACT_UNIQUES_MAX_DAYS = 31;
export const TOP_LINKS = 10;

const DAY_MS = 24 * 3600 * 1000;

/** The last `days` UTC days up to and including today's. */
export function dayWindow(days: number, now: Date): { window: DayWindow; days: string[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const list = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  return { window: { from: list[0], to: list[list.length - 1] }, days: list };
}

const LINK_DIMENSIONS = [
  RollupDimension.total,
  RollupDimension.visitors,
  RollupDimension.country,
  RollupDimension.region,
  RollupDimension.city,
  RollupDimension.timezone,
  RollupDimension.device,
  RollupDimension.platform,
];
const PROJECT_DIMENSIONS = [
  RollupDimension.total,
  RollupDimension.visitors,
  RollupDimension.country,
  RollupDimension.device,
  RollupDimension.platform,
];

/** Link, project and organization click analytics (bots excluded), from daily rollups. */
@Injectable()
export class LinkAnalyticsService {
  constructor(private readonly repository: AnalyticsRepository) {}

  async linkSummary(organizationId: string, linkId: string, days = DEFAULT_DAYS, now = new Date()): Promise<LinkAnalyticsResponse> {
    if (!(await this.repository.linkExists(organizationId, linkId))) throw new AnalyticsLinkNotFoundError();
    const scope = { linkId };
    const w = dayWindow(days, now);
    const [rows, daily, exact] = await Promise.all([
      this.repository.dimensionCounts(organizationId, scope, w.window, LINK_DIMENSIONS),
      this.repository.dailyTotals(organizationId, scope, w.window),
      this.exactUniques(organizationId, scope, w.window, days),
    ]);
    const dims = groupDimensions(rows);
    return toLinkAnalyticsResponse(dims, fillDays(w.days, daily), exact ?? dailyUniquesOf(dims));
  }

  async projectSummary(
    organizationId: string,
    projectId: string,
    days = DEFAULT_DAYS,
    now = new Date(),
  ): Promise<ProjectAnalyticsResponse> {
    if (!(await this.repository.projectExists(organizationId, projectId))) throw new AnalyticsProjectNotFoundError();
    const scope = { projectId };
    const w = dayWindow(days, now);
    const [rows, daily, exact] = await Promise.all([
      this.repository.dimensionCounts(organizationId, scope, w.window, PROJECT_DIMENSIONS),
      this.repository.dailyTotals(organizationId, scope, w.window),
      this.exactUniques(organizationId, scope, w.window, days),
    ]);
    const dims = groupDimensions(rows);
    return toProjectAnalyticsResponse(dims, fillDays(w.days, daily), exact ?? dailyUniquesOf(dims));
  }

  async overview(organizationId: string, days = DEFAULT_DAYS, now = new Date()): Promise<OverviewResponse> {
    const scope = {};
    const w = dayWindow(days, now);
    const [links, rows, daily, exact, topLinks] = await Promise.all([
      this.repository.linkCounts(organizationId, now),
      this.repository.dimensionCounts(organizationId, scope, w.window, [RollupDimension.total, RollupDimension.visitors]),
      this.repository.dailyTotals(organizationId, scope, w.window),
      this.exactUniques(organizationId, scope, w.window, days),
      this.repository.topLinks(organizationId, w.window, TOP_LINKS),
    ]);
    const dims = groupDimensions(rows);
    const clicksByDate = fillDays(w.days, daily);
    return {
      totalLinks: links.total,
      activeLinks: links.active,
      totalClicks: totalOf(dims),
      uniqueClicks: exact ?? dailyUniquesOf(dims),
      clicksToday: clicksByDate[clicksByDate.length - 1]?.clicks ?? 0,
      clicksByDate,
      topLinks,
    };
  }

  async recentClicks(organizationId: string, linkId: string, limit = DEFAULT_CLICK_LIMIT): Promise<ClickEventResponse[]> {
    if (!(await this.repository.linkExists(organizationId, linkId))) throw new AnalyticsLinkNotFoundError();
    const rows = await this.repository.recentClicks(organizationId, linkId, limit);
    return rows.map(toClickEventResponse);
  }

  private exactUniques(organizationId: string, scope: AnalyticsScope, w: DayWindow, days: number): Promise<number | null> {
    if (days > EXACT_UNIQUES_MAX_DAYS) return Promise.resolve(null);
    return this.repository.distinctVisitors(organizationId, scope, w);
  }
}
