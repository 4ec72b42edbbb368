import { Readable } from 'node:stream';
import { clickCsvChunks, clickJsonChunks } from './click-export';
import { Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { MONTHLY_DIMENSIONS, RollupDimension } from '@dl/clicks';
import { LinkNotFoundError, ProjectNotFoundError } from '@dl/links';
import { hasFilters, LinkAnalyticsQueryDto } from './analytics-filters.dto';
import { DEFAULT_CLICK_LIMIT, DEFAULT_DAYS } from './analytics.dto';
import { OrgAnalyticsService } from './org-analytics.service';
import {
  dailyUniquesOf,
  fillDays,
  groupDimensions,
  toClickEventResponse,
  toClickExportRow,
  toLinkAnalyticsResponse,
  toOverviewResponse,
  toProjectAnalyticsResponse,
} from './analytics.mapper';
import { AnalyticsRepository, AnalyticsScope, DayWindow } from './analytics.repository';
import {
  ClickEventResponseDto,
  ClickExportRowDto,
  LinkAnalyticsResponseDto,
  OverviewResponseDto,
  ProjectAnalyticsResponseDto,
} from './analytics-response.dto';

/**
 * Unique clicks are counted exactly (distinct visitor hashes of
 * `click_daily_visitors` over the window) when the window holds at most this many
 * visitor-days (the `visitors` rollup, read with the summary, says how many), so the
 * exact count never reads more rows than this. Above it (very busy links over long
 * windows) uniqueClicks is the sum of daily unique visitors. See docs/decisions/analytics.md,
 * "Unique clicks".
 */
export const EXACT_UNIQUES_MAX_ROWS = 20_000;
export const TOP_LINKS = 10;
/** Clicks read per round trip while streaming an export. */
export const EXPORT_PAGE = 2000;

const DAY_MS = 24 * 3600 * 1000;

/** The last `days` UTC days up to and including today's. */
export function dayWindow(days: number, now: Date): { window: DayWindow; days: string[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const list = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  return { window: { from: list[0], to: list[list.length - 1] }, days: list };
}

/** A link's summary: every dimension kept per month (read from month rows), and its A/B variants and routing rules (day rows). */
const LINK_DIMENSIONS = [...MONTHLY_DIMENSIONS, RollupDimension.variant, RollupDimension.rule];
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
  /** See EXACT_UNIQUES_MAX_ROWS (tests lower it). */
  exactUniquesMaxRows = EXACT_UNIQUES_MAX_ROWS;

  constructor(
    private readonly repository: AnalyticsRepository,
    private readonly org: OrgAnalyticsService,
    private readonly audit: AuditSink,
  ) {}

  async linkSummary(
    organizationId: string,
    linkId: string,
    days = DEFAULT_DAYS,
    now = new Date(),
    query: LinkAnalyticsQueryDto = {},
  ): Promise<LinkAnalyticsResponseDto> {
    const controls = await this.repository.linkControls(organizationId, linkId);
    if (!controls) throw new LinkNotFoundError();
    // Filters or a zone other than UTC: the cube (decisions §24); else the daily rollups.
    if (hasFilters(query) || (query.tz !== undefined && query.tz !== 'UTC')) {
      return this.org.linkSummary(organizationId, linkId, { ...query, days }, controls, now);
    }
    const scope = { linkId };
    const w = dayWindow(days, now);
    const [rows, daily] = await Promise.all([
      this.repository.dimensionCounts(organizationId, scope, w.window, LINK_DIMENSIONS),
      this.repository.dailyTotals(organizationId, scope, w.window),
    ]);
    const dims = groupDimensions(rows);
    const unique = await this.uniques(organizationId, scope, w.window, dailyUniquesOf(dims));
    return toLinkAnalyticsResponse(dims, fillDays(w.days, daily), unique, controls);
  }

  async projectSummary(
    organizationId: string,
    projectId: string,
    days = DEFAULT_DAYS,
    now = new Date(),
  ): Promise<ProjectAnalyticsResponseDto> {
    if (!(await this.repository.projectExists(organizationId, projectId))) throw new ProjectNotFoundError();
    const scope = { projectId };
    const w = dayWindow(days, now);
    const [rows, daily] = await Promise.all([
      this.repository.dimensionCounts(organizationId, scope, w.window, PROJECT_DIMENSIONS),
      this.repository.dailyTotals(organizationId, scope, w.window),
    ]);
    const dims = groupDimensions(rows);
    const unique = await this.uniques(organizationId, scope, w.window, dailyUniquesOf(dims));
    return toProjectAnalyticsResponse(dims, fillDays(w.days, daily), unique);
  }

  async overview(organizationId: string, days = DEFAULT_DAYS, now = new Date()): Promise<OverviewResponseDto> {
    const scope = {};
    const w = dayWindow(days, now);
    const [links, rows, daily, topLinks] = await Promise.all([
      this.repository.linkCounts(organizationId, now),
      this.repository.dimensionCounts(organizationId, scope, w.window, [RollupDimension.total, RollupDimension.visitors]),
      this.repository.dailyTotals(organizationId, scope, w.window),
      this.repository.topLinks(organizationId, w.window, TOP_LINKS),
    ]);
    const dims = groupDimensions(rows);
    const unique = await this.uniques(organizationId, scope, w.window, dailyUniquesOf(dims));
    return toOverviewResponse(links, dims, fillDays(w.days, daily), unique, topLinks);
  }

  async recentClicks(organizationId: string, linkId: string, limit = DEFAULT_CLICK_LIMIT): Promise<ClickEventResponseDto[]> {
    if (!(await this.repository.linkExists(organizationId, linkId))) throw new LinkNotFoundError();
    const rows = await this.repository.recentClicks(organizationId, linkId, limit);
    return rows.map(toClickEventResponse);
  }

  /**
   * Every click of the link in the last `days` days (UTC, today included), oldest first, as a
   * stream of CSV or JSON text: pages of EXPORT_PAGE rows by keyset, so memory stays flat
   * whatever the count. 404 `Link not found` for another organization's link, before any byte.
   */
  async exportClicks(
    organizationId: string,
    linkId: string,
    format: 'csv' | 'json' = 'json',
    days = DEFAULT_DAYS,
    now = new Date(),
  ): Promise<{ contentType: string; filename: string; stream: Readable }> {
    if (!(await this.repository.linkExists(organizationId, linkId))) throw new LinkNotFoundError();
    this.audit.record({ organizationId, action: 'export.created', targetId: linkId, changes: { kind: 'clicks', format, days } });
    const since = new Date(`${dayWindow(days, now).window.from}T00:00:00.000Z`);
    const repository = this.repository;
    async function* pages(): AsyncGenerator<ClickExportRowDto[]> {
      let after: { clickedAt: Date; id: string } | null = null;
      for (;;) {
        const rows = await repository.clickExportPage(organizationId, linkId, since, after, EXPORT_PAGE);
        yield rows.map(toClickExportRow);
        if (rows.length < EXPORT_PAGE) return;
        const last = rows[rows.length - 1];
        after = { clickedAt: last.clickedAt, id: last.id };
      }
    }
    const name = `clicks-${linkId}-${days}d`;
    return format === 'csv'
      ? { contentType: 'text/csv; charset=utf-8', filename: `${name}.csv`, stream: Readable.from(clickCsvChunks(pages())) }
      : { contentType: 'application/json; charset=utf-8', filename: `${name}.json`, stream: Readable.from(clickJsonChunks(pages())) };
  }

  /** Exact distinct visitors when the window is small enough, else the sum of daily uniques. */
  private async uniques(organizationId: string, scope: AnalyticsScope, w: DayWindow, dailyUniques: number): Promise<number> {
    if (dailyUniques === 0) return 0;
    if (dailyUniques > this.exactUniquesMaxRows) return dailyUniques;
    return this.repository.distinctVisitors(organizationId, scope, w);
  }
}
