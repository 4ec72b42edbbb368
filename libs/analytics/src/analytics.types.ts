/** Response shapes of link, project and overview analytics (spec "Link analytics summary", decisions §8). */

export interface DateClicks {
  /** YYYY-MM-DD (UTC) */
  date: string;
  clicks: number;
}

export interface LinkAnalyticsResponse {
  totalClicks: number;
  uniqueClicks: number;
  clicksByDate: DateClicks[];
  clicksByCountry: Array<{ countryCode: string; country: string; clicks: number }>;
  clicksByCity: Array<{ city: string; countryCode: string; region: string; clicks: number }>;
  clicksByRegion: Array<{ region: string; countryCode: string; clicks: number }>;
  clicksByTimezone: Array<{ timezone: string; clicks: number }>;
  clicksByDevice: Array<{ device: string; clicks: number }>;
  clicksByPlatform: Array<{ platform: string; clicks: number }>;
  clicksByVariant: Array<{ variant: number; url: string | null; clicks: number }>;
  clicksByRule: Array<{ rule: number | null; clicks: number }>;
}

export interface ProjectAnalyticsResponse {
  totalClicks: number;
  uniqueClicks: number;
  clicksByDate: DateClicks[];
  clicksByCountry: Array<{ country: string; clicks: number }>;
  clicksByDevice: Array<{ device: string; clicks: number }>;
  clicksByPlatform: Array<{ platform: string; clicks: number }>;
}

export interface OverviewResponse {
  totalLinks: number;
  activeLinks: number;
  totalClicks: number;
  uniqueClicks: number;
  clicksToday: number;
  clicksByDate: DateClicks[];
  topLinks: Array<{ id: string; shortCode: string; title: string | null; clicks: number }>;
}

export interface ClickEventResponse {
  id: string;
  linkId: string;
  clickedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  deviceType: string | null;
  platform: string | null;
  browser: string | null;
  browserVersion: string | null;
  os: string | null;
  osVersion: string | null;
  countryCode: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
  timezone: string | null;
  latitude: number | null;
  longitude: number | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  referrer: string | null;
}
