import { Inject, Injectable } from '@nestjs/common';
import { RollupDimension } from '@dl/clicks';
import { countryName } from '@dl/platform/geo';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Tier } from '@dl/platform/db';
import { buildInsights, InsightInput } from './insights';
import {
  addDays, addMonths, DAY_MS, daysInPeriod, isoDay, Period, periodEnd, periodLabel, periodStart, startOfDay,
} from './period';
import { conversionsSection } from './report-conversions';
import { fraction, kpi, mergeCurrencies, round, shares } from './report-math';
import { ReportCurrencyAmountDto, MonthlyReportDto, ReportTopLinkDto } from './report-response.dto';
import { ReportDataRepository, ReportWindows } from './report-data.repository';
import { OrganizationRow } from './reports.repository';

const TOP_LINKS = 10;
const TOP_ROWS = 10;
const NAME_LIMIT = 100;

/** How far back raw click history (and daily visitor hashes) reaches, per plan (decisions §5). */
export const RAW_HISTORY_DAYS: Record<Tier, number> = {
  FREE: 30,
  PRO: 365,
  BUSINESS: 3 * 365,
  UNLIMITED: 3 * 365,
};

const PLATFORM_LABELS: Record<string, string> = { ios: 'iOS', android: 'Android' };
const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * Windows of a report. A finished month is compared with the whole prior month;
 * the live month runs through today and is compared with the same number of days
 * at the start of the prior month.
 */
export function reportWindows(period: Period, now: Date, live: boolean): ReportWindows {
  const start = periodStart(period);
  const prev = addMonths(period, -1);
  const prevStart = periodStart(prev);
  if (!live) return { current: { start, end: periodEnd(period) }, prior: { start: prevStart, end: start } };
  const end = new Date(Math.min(addDays(startOfDay(now), 1).getTime(), periodEnd(period).getTime()));
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  const priorEnd = new Date(Math.min(addDays(prevStart, days).getTime(), start.getTime()));
  return { current: { start, end }, prior: { start: prevStart, end: priorEnd } };
}

/**
 * A top link's A/B variants and redirect rules with their clicks in the month (as link analytics'
 * clicksByVariant/clicksByRule, plus each one's share of the link's clicks); nothing for a link
 * that has neither and recorded none.
 */
export function topLinkControls(
  linkId: string,
  linkClicks: number,
  controls: Awaited<ReturnType<ReportDataRepository['linkControls']>>,
): Pick<ReportTopLinkDto, 'variants' | 'rules'> {
  const link = controls.links.find((l) => l.id === linkId);
  const rows = controls.clicks.filter((c) => c.linkId === linkId);
  const counts = (dimension: string) => new Map(rows.filter((r) => r.dimension === dimension).map((r) => [Number(r.value), r.clicks]));
  const out: Pick<ReportTopLinkDto, 'variants' | 'rules'> = {};
  const variantClicks = counts('variant');
  const current = Array.isArray(link?.variants) ? link.variants : [];
  if (current.length || variantClicks.size) {
    const variants = current.map((v, i) => ({ variant: i, url: v.url as string | null, clicks: variantClicks.get(i) ?? 0 }));
    for (const [i, n] of [...variantClicks].sort((a, b) => a[0] - b[0])) if (i >= current.length) variants.push({ variant: i, url: null, clicks: n });
    out.variants = variants.map((v) => ({ ...v, share: fraction(v.clicks, linkClicks) }));
  }
  const ruleClicks = counts('rule');
  if (link?.hasRules || ruleClicks.size) {
    const rules: Array<{ rule: number | null; clicks: number }> = [...ruleClicks].sort((a, b) => a[0] - b[0]).map(([rule, n]) => ({ rule, clicks: n }));
    const ruled = rules.reduce((n, r) => n + r.clicks, 0);
    rules.push({ rule: null, clicks: Math.max(0, linkClicks - ruled) });
    out.rules = rules.map((r) => ({ ...r, share: fraction(r.clicks, linkClicks) }));
  }
  return out;
}

/** Builds the monthly report object from rollups and stream tables. */
@Injectable()
export class ReportBuilder {
  constructor(
    private readonly repo: ReportDataRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async build(org: OrganizationRow, period: Period, now: Date, live: boolean): Promise<MonthlyReportDto> {
    const orgId = org.id;
    const w = reportWindows(period, now, live);
    const historyStart = new Date(now.getTime() - RAW_HISTORY_DAYS[org.tier] * DAY_MS);

    // Every click-side read at once (they are independent); stream sections follow.
    const [streams, { daily, links }, zeroClickLinks, dims, housekeeping, uniques, priorUniques, conversions] = await Promise.all([
      this.repo.streams(orgId),
      this.repo.clickTotals(orgId, w),
      this.repo.zeroClickLinks(orgId, w.current),
      this.repo.dimensionClicks(orgId, w.current, [
        RollupDimension.source,
        RollupDimension.country,
        RollupDimension.device,
      ]),
      this.repo.housekeeping(orgId, w.current, NAME_LIMIT),
      historyStart <= w.current.start ? this.repo.monthVisitors(orgId, w.current.start) : null,
      historyStart <= w.prior.start ? this.priorVisitors(orgId, w, live) : null,
      org.tier === Tier.FREE ? { any: false, rows: [] } : this.repo.conversions(orgId, w),
    ]);

    // Clicks: daily series of the current window (zeros filled), totals of both windows.
    const currentStartDay = isoDay(w.current.start);
    const byDay = new Map(daily.map((d) => [d.day, d.clicks]));
    const days = live
      ? Math.round((w.current.end.getTime() - w.current.start.getTime()) / DAY_MS)
      : daysInPeriod(period);
    const series = Array.from({ length: days }, (_, i) => {
      const day = isoDay(addDays(w.current.start, i));
      return { day, clicks: byDay.get(day) ?? 0 };
    });
    const clicks = series.reduce((s, d) => s + d.clicks, 0);
    const priorClicks = daily.filter((d) => d.day < currentStartDay).reduce((s, d) => s + d.clicks, 0);
    const bestDay = series.reduce<{ day: string; clicks: number } | null>(
      (best, d) => (d.clicks > 0 && (!best || d.clicks > best.clicks) ? d : best),
      null,
    );

    const shortBase = this.config.SHORT_LINK_BASE_URL.replace(/\/+$/, '');
    const top = links.slice(0, TOP_LINKS);
    const controls = await this.repo.linkControls(orgId, w.current, top.map((l) => l.linkId));
    const topLinks = top.map((l) => ({
      label: l.title || l.shortCode,
      sublabel: `${shortBase}/${l.shortCode}`,
      value: l.clicks,
      share: fraction(l.clicks, clicks),
      ...topLinkControls(l.linkId, l.clicks, controls),
    }));
    const rest = links.slice(TOP_LINKS);

    const dim = (name: string, label: (v: string) => string) => {
      const merged = new Map<string, number>();
      for (const r of dims.filter((d) => d.dimension === name)) {
        const l = label(r.value);
        merged.set(l, (merged.get(l) ?? 0) + r.clicks);
      }
      const rows = [...merged].map(([l, value]) => ({ label: l, value }));
      rows.sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
      return shares(rows, clicks, TOP_ROWS);
    };

    const base: InsightInput = {
      organization: { id: org.id, name: org.name, slug: org.slug, tier: org.tier },
      period: {
        type: 'month',
        start: periodStart(period).toISOString(),
        end: periodEnd(period).toISOString(),
        label: periodLabel(period),
        priorLabel: periodLabel(addMonths(period, -1)),
      },
      kpis: {
        clicks: kpi(clicks, priorClicks),
        uniques: uniques === null ? null : kpi(uniques, priorUniques),
        installs: null,
        sessions: null,
      },
      daily: series,
      bestDay,
      topLinks,
      otherLinks: { count: rest.length, clicks: rest.reduce((s, l) => s + l.clicks, 0) },
      zeroClickLinks,
      sources: dim(RollupDimension.source, (v) => v || 'Direct'),
      countries: dim(RollupDimension.country, (v) => countryName(v) || 'Unknown'),
      devices: dim(RollupDimension.device, (v) => capitalize(v) || 'Unknown'),
      installs: null,
      pixel: null,
      events: null,
      conversions: conversionsSection(org.tier, conversions, shortBase),
      housekeeping: {
        linksCreated: housekeeping.created,
        linksExpired: housekeeping.expired,
        linksDisabled: housekeeping.disabled,
        linksWithStoreUrls: housekeeping.withStoreUrls,
      },
    };

    let installsThisMonth = 0;
    if (streams.sdk) {
      const [byPlatform, priorInstalls, sessions, priorSessions] = await Promise.all([
        this.repo.installsByPlatform(orgId, w.current),
        this.repo.countInstalls(orgId, w.prior),
        this.repo.countSessions(orgId, w.current),
        this.repo.countSessions(orgId, w.prior),
      ]);
      installsThisMonth = byPlatform.reduce((s, r) => s + r.installs, 0);
      const attributed = byPlatform.reduce((s, r) => s + r.attributed, 0);
      base.kpis.installs = kpi(installsThisMonth, priorInstalls);
      base.kpis.sessions = kpi(sessions, priorSessions);
      base.installs = {
        byPlatform: shares(
          byPlatform.map((r) => ({ label: PLATFORM_LABELS[r.platform] ?? capitalize(r.platform), value: r.installs })),
          installsThisMonth,
          TOP_ROWS,
        ),
        attributed,
        attributionRate: fraction(attributed, installsThisMonth),
      };
    }

    let pixelConversions = { current: 0, prior: 0 };
    let pixelValue: ReportCurrencyAmountDto[] = [];
    if (streams.pixel) {
      const [cur, prior, value, pages] = await Promise.all([
        this.repo.pixelCounts(orgId, w.current),
        this.repo.pixelCounts(orgId, w.prior),
        this.repo.pixelValue(orgId, w),
        this.repo.topPages(orgId, w.current, TOP_ROWS),
      ]);
      pixelConversions = { current: cur.conversions, prior: prior.conversions };
      pixelValue = value;
      base.pixel = {
        pageviews: kpi(cur.pageviews, prior.pageviews),
        conversions: kpi(cur.conversions, prior.conversions),
        attributedConversions: cur.attributedConversions,
        conversionRate: fraction(cur.conversions, cur.pageviews),
        value,
        topPages: shares(
          pages.map((p) => ({ label: p.page, value: p.views })),
          cur.pageviews,
          TOP_ROWS,
        ),
      };
    }

    if (streams.sdk || streams.pixel) {
      const [byName, cur, prior, revenue] = streams.sdk
        ? await Promise.all([
            this.repo.eventsByName(orgId, w.current),
            this.repo.countEvents(orgId, w.current),
            this.repo.countEvents(orgId, w.prior),
            this.repo.revenue(orgId, w),
          ])
        : [[], { events: 0, revenueEvents: 0 }, { events: 0, revenueEvents: 0 }, []];
      const total = cur.events + pixelConversions.current;
      const rows = byName.map((r) => ({
        label: r.name,
        sublabel: r.installs === 1 ? '1 install' : `${r.installs.toLocaleString('en-US')} installs`,
        value: r.events,
      }));
      if (pixelConversions.current > 0) {
        rows.push({ label: 'website conversion', sublabel: 'Website pixel', value: pixelConversions.current });
        rows.sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
      }
      base.events = {
        total: kpi(total, prior.events + pixelConversions.prior),
        byName: rows.slice(0, TOP_ROWS).map((r) => ({ ...r, share: fraction(r.value, total) })),
        revenue: mergeCurrencies(revenue, pixelValue),
        conversions: cur.revenueEvents + pixelConversions.current,
        perInstall: installsThisMonth > 0 ? round(cur.events / installsThisMonth, 2) : null,
      };
    }

    return { ...base, insights: buildInsights(base), generatedAt: now.toISOString() };
  }

  /**
   * Distinct visitors of the prior window: the whole prior month from its monthly set, or, for
   * the live month (its first days only), a distinct count over those days. The current window
   * always starts on the 1st and runs through today, so its month's set is exactly its visitors.
   */
  private priorVisitors(orgId: string, w: ReportWindows, live: boolean): Promise<number> {
    return live && w.prior.end < w.current.start ? this.repo.uniqueVisitors(orgId, w.prior) : this.repo.monthVisitors(orgId, w.prior.start);
  }
}
