import { Tier } from '@dl/platform/db';

/** A number of the month with last month's for comparison; deltaPct is null when prior is 0 or unknown. */
export interface Kpi {
  value: number;
  prior: number | null;
  deltaPct: number | null;
}

export interface Share {
  label: string;
  value: number;
  /** fraction 0..1 */
  share: number;
}

export interface LinkShare extends Share {
  sublabel: string;
}

/** A top link; A/B variants and redirect rules (decisions §16) only for links that have or had them. */
export interface TopLinkShare extends LinkShare {
  /** Every current variant (0 clicks included), then indexes of removed variants (url null); share of the link's clicks. */
  variants?: Array<{ variant: number; url: string | null; clicks: number; share: number }>;
  /** Each rule that chose destinations, by index, then `rule: null` for the clicks no rule chose. */
  rules?: Array<{ rule: number | null; clicks: number; share: number }>;
}

export interface CurrencyAmount {
  currency: string;
  amount: number;
  prior: number;
}

export interface MonthlyReport {
  organization: { id: string; name: string; slug: string; tier: Tier };
  period: { type: 'month'; start: string; end: string; label: string; priorLabel: string };
  kpis: { clicks: Kpi; uniques: Kpi | null; installs: Kpi | null; sessions: Kpi | null };
  daily: Array<{ day: string; clicks: number }>;
  bestDay: { day: string; clicks: number } | null;
  topLinks: TopLinkShare[];
  otherLinks: { count: number; clicks: number };
  zeroClickLinks: number;
  sources: Share[];
  countries: Share[];
  devices: Share[];
  installs: { byPlatform: Share[]; attributed: number; attributionRate: number } | null;
  pixel: {
    pageviews: Kpi;
    conversions: Kpi;
    /** conversions tied to a link click (dl_click) */
    attributedConversions: number;
    /** conversions / pageviews, 0..1 */
    conversionRate: number;
    value: CurrencyAmount[];
    topPages: Share[];
  } | null;
  events: {
    total: Kpi;
    byName: LinkShare[];
    revenue: CurrencyAmount[];
    conversions: number;
    perInstall: number | null;
  } | null;
  housekeeping: {
    linksCreated: string[];
    linksExpired: string[];
    linksDisabled: number;
    linksWithStoreUrls: number;
  };
  insights: { headline: string; links: string[]; events: string[]; actions: Array<{ title: string; body: string }> };
  generatedAt: string;
}

export interface MonthlyReportListItem {
  period: string;
  label: string;
  generatedAt: string | null;
  live: boolean;
}
