/**
 * Renders the monthly report email to PNG with headless Chromium (Debian package
 * `chromium`), for a visual check of the HTML. Not a test: CI machines may lack Chromium.
 *
 *   node tools/scripts/run.js tools/reports/render-email.ts [out.png]   (default docs/report-email-example.png)
 *   DATABASE_URL=... node tools/scripts/run.js tools/reports/render-email.ts out.png --org <slug> --period YYYY-MM
 *     (a real organization's month, built from the database without storing it)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '@dl/platform/config';
import { PrismaReadService, PrismaService } from '@dl/platform/db';
import {
  buildInsights, CHART_CID, dailyClicksChart, InsightInput, MonthlyReportDto, parsePeriod, renderReportEmail, ReportBuilder,
  ReportDataRepository, ReportsRepository,
} from '@dl/reports';

function sampleReport(): MonthlyReportDto {
  const daily = Array.from({ length: 30 }, (_, i) => {
    const weekday = (i + 0) % 7;
    const base = 2600 + Math.round(700 * Math.sin(i / 4)) + (weekday === 5 || weekday === 6 ? -600 : 250);
    return { day: `2026-11-${String(i + 1).padStart(2, '0')}`, clicks: i === 17 ? 5120 : base };
  });
  const clicks = daily.reduce((s, d) => s + d.clicks, 0);
  const share = (v: number, t = clicks) => Math.round((v / t) * 10_000) / 10_000;
  const links = [
    ['Black Friday Sale', 'bfsale', 21480], ['Spring Collection', 'spring26', 11230], ['Newsletter #48', 'nl48', 8840],
    ['App download', 'getapp', 7320], ['Instagram bio', 'igbio', 6105], ['Podcast ep. 112', 'pod112', 4410],
    ['Partner: Outdoorly', 'outdrly', 3380], ['Gift guide', 'gifts26', 2990], ['Careers', 'jobs', 1870], ['Store locator', 'stores', 1340],
  ] as const;
  const top = links.map(([label, code, value]) => ({ label, sublabel: `https://dl.ink/${code}`, value, share: share(value) }));
  const other = clicks - top.reduce((s, l) => s + l.value, 0);
  const rows = (xs: Array<[string, number]>) => xs.map(([label, value]) => ({ label, value, share: share(value) }));
  const base: InsightInput = {
    organization: { id: '7d1c3c6e-0000-4000-8000-000000000001', name: 'Northwind Outfitters', slug: 'northwind', tier: 'PRO' },
    period: { type: 'month', start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', label: 'November 2026', priorLabel: 'October 2026' },
    kpis: {
      clicks: { value: clicks, prior: 71240, deltaPct: Math.round(((clicks - 71240) / 71240) * 1000) / 10 },
      uniques: { value: 52310, prior: 49875, deltaPct: 4.9 },
      installs: { value: 3120, prior: 2710, deltaPct: 15.1 },
      sessions: { value: 18460, prior: 19120, deltaPct: -3.5 },
    },
    daily,
    bestDay: { day: '2026-11-18', clicks: 5120 },
    topLinks: top,
    otherLinks: { count: 47, clicks: other },
    zeroClickLinks: 12,
    sources: rows([['instagram.com', 24110], ['Direct', 19870], ['newsletter', 14320], ['google.com', 9840], ['t.co', 6210]]),
    countries: rows([['United States', 38120], ['Canada', 12040], ['United Kingdom', 9310], ['Germany', 6420], ['Australia', 4480]]),
    devices: rows([['Mobile', 56210], ['Desktop', 24380], ['Tablet', 4120]]),
    installs: { byPlatform: [{ label: 'iOS', value: 1890, share: 0.6058 }, { label: 'Android', value: 1230, share: 0.3942 }], attributed: 2215, attributionRate: 0.7099 },
    pixel: {
      pageviews: { value: 40210, prior: 37020, deltaPct: 8.6 }, conversions: { value: 1302, prior: 1150, deltaPct: 13.2 },
      attributedConversions: 940, conversionRate: 0.0324, value: [{ currency: 'USD', amount: 58210.4, prior: 50120 }], topPages: [],
    },
    events: {
      total: { value: 48210, prior: 43950, deltaPct: 9.7 },
      byName: [
        { label: 'add_to_cart', sublabel: '2,140 installs', value: 18220, share: 0.3779 },
        { label: 'view_item', sublabel: '2,890 installs', value: 15640, share: 0.3244 },
        { label: 'revenue', sublabel: '1,020 installs', value: 1310, share: 0.0272 },
      ],
      revenue: [{ currency: 'USD', amount: 96420.5, prior: 81230 }, { currency: 'EUR', amount: 8120, prior: 7030 }],
      conversions: 2612,
      perInstall: 15.45,
    },
    conversions: {
      leads: { value: 1840, prior: 1612, deltaPct: 14.1 },
      sales: { value: 412, prior: 388, deltaPct: 6.2 },
      revenue: [
        {
          currency: 'USD', sales: 371, amount: 2184500, refunded: 96300, net: 2088200, prior: 1935400,
          topLinks: [
            { label: 'Black Friday Sale', sublabel: 'https://dl.ink/bfsale', sales: 182, net: 1093100 },
            { label: 'Newsletter #48', sublabel: 'https://dl.ink/nl48', sales: 74, net: 402300 },
            { label: 'Partner: Outdoorly & <Co>', sublabel: 'https://dl.ink/outdrly', sales: 41, net: 233800 },
          ],
        },
        {
          currency: 'EUR', sales: 41, amount: 219000, refunded: 0, net: 219000, prior: 187500,
          topLinks: [{ label: 'Spring Collection', sublabel: 'https://dl.ink/spring26', sales: 29, net: 151000 }],
        },
      ],
    },
    housekeeping: { linksCreated: ['Black Friday Sale', 'Gift guide', 'Newsletter #48', 'Podcast ep. 112'], linksExpired: ['Halloween promo', 'October giveaway'], linksDisabled: 3, linksWithStoreUrls: 18 },
  };
  return { ...base, insights: buildInsights(base), generatedAt: '2026-12-01T00:30:04.000Z' };
}

async function fromDatabase(slug: string, periodKey: string): Promise<MonthlyReportDto> {
  const config = loadConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/deeplink', ...process.env, LOG_LEVEL: 'silent' });
  const prisma = new PrismaService(config);
  try {
    const repo = new ReportsRepository(prisma);
    const { id } = await prisma.organization.findFirstOrThrow({ where: { slug }, select: { id: true } });
    const period = parsePeriod(periodKey);
    if (!period) throw new Error('--period must be YYYY-MM');
    return await new ReportBuilder(new ReportDataRepository(PrismaReadService.create(config, prisma)), config).build((await repo.findOrganization(id))!, period, new Date(), false);
  } finally {
    await prisma.$disconnect();
  }
}

async function main(): Promise<void> {
  const flag = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const positional = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : undefined;
  const out = resolve(positional ?? 'docs/report-email-example.png');
  const dir = mkdtempSync(join(tmpdir(), 'dl-email-'));
  try {
    const org = flag('org');
    const report = org ? await fromDatabase(org, flag('period') ?? '') : sampleReport();
    const { html } = renderReportEmail(report, { dashboardUrl: 'https://app.example.com/reports/2026-11' });
    writeFileSync(join(dir, 'chart.png'), dailyClicksChart(report.daily.map((d) => d.clicks)));
    writeFileSync(join(dir, 'email.html'), html.replaceAll(`cid:${CHART_CID}`, 'chart.png'));
    execFileSync(
      process.env.CHROMIUM_BIN ?? 'chromium',
      ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--force-device-scale-factor=1',
        `--screenshot=${out}`, '--window-size=680,3680', `file://${join(dir, 'email.html')}`],
      { stdio: ['ignore', 'ignore', 'inherit'], timeout: 60_000 },
    );
    process.stdout.write(`${JSON.stringify({ png: out })}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
