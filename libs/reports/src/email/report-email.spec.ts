import { PNG } from 'pngjs';
import { buildInsights, InsightInput } from '../insights';
import { MonthlyReportDto } from '../report-response.dto';
import { dailyClicksChart } from './chart';
import { CHART_CID, renderReportEmail } from './report-email';

function report(overrides: Partial<InsightInput> = {}): MonthlyReportDto {
  const base: InsightInput = {
    organization: { id: 'o', name: 'Acme <b>&</b> Co', slug: 'acme', tier: 'PRO' },
    period: { type: 'month', start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', label: 'November 2026', priorLabel: 'October 2026' },
    kpis: { clicks: { value: 1234, prior: 1000, deltaPct: 23.4 }, uniques: null, installs: null, sessions: null },
    daily: [
      { day: '2026-11-01', clicks: 1000 },
      { day: '2026-11-02', clicks: 234 },
    ],
    bestDay: { day: '2026-11-01', clicks: 1000 },
    topLinks: [{ label: '<img src=x onerror=alert(1)>', sublabel: 'http://sho.rt/abc', value: 1234, share: 1 }],
    otherLinks: { count: 0, clicks: 0 },
    zeroClickLinks: 0,
    sources: [{ label: 'Direct', value: 1234, share: 1 }],
    countries: [],
    devices: [],
    installs: null,
    pixel: null,
    events: null,
    housekeeping: { linksCreated: [], linksExpired: [], linksDisabled: 0, linksWithStoreUrls: 0 },
    ...overrides,
  };
  return { ...base, insights: buildInsights(base), generatedAt: '2026-12-01T00:30:00.000Z' };
}

describe('renderReportEmail', () => {
  it('escapes every customer-controlled string in the HTML part', () => {
    const { html, subject, text } = renderReportEmail(report());
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Acme &lt;b&gt;&amp;&lt;/b&gt; Co');
    expect(subject).toBe('Acme <b>&</b> Co: your November 2026 report');
    expect(text).toContain('  - <img src=x onerror=alert(1)> (http://sho.rt/abc): 1,234 (100%)');
  });

  it('shows KPIs with deltas, the chart by cid, and a dash for a missing stream', () => {
    const { html, text } = renderReportEmail(report());
    expect(html).toContain(`src="cid:${CHART_CID}"`);
    expect(html).toContain('▲ 23.4%');
    expect(html).toContain('add the mobile SDK');
    expect(text).toContain('Clicks: 1,234 (+23.4%)');
    expect(text).toContain('Installs: n/a');
  });
});

describe('dailyClicksChart', () => {
  it('draws a 2x PNG with the best day highlighted', () => {
    const png = PNG.sync.read(dailyClicksChart([1, 5, 2]));
    expect([png.width, png.height]).toEqual([1120, 320]);
    const at = (x: number, y: number) => Array.from(png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3));
    const bottom = png.height - 6;
    expect(at(Math.round(1120 / 6), bottom)).toEqual([79, 70, 229]);
    expect(at(Math.round(1120 / 2), bottom)).toEqual([16, 185, 129]);
  });
});
