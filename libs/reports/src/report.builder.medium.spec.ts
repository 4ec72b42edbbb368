import { Logger } from '@nestjs/common';
import { PrismaReadService, Role, Tier } from '@dl/platform/db';
import { closeAll, createTestEnv, ReportFixtures, TestEnv } from '@dl/testing';
import { Clock } from './clock';
import { ReportBuilder } from './report.builder';
import { ReportDataRepository } from './report-data.repository';
import { MonthlyReportDto } from './report-response.dto';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

const at = (iso: string) => new Date(iso);
const NOW = at('2026-12-15T12:00:00Z');
Logger.overrideLogger(false);

describe(ReportBuilder.name, () => {
  let env: TestEnv, fx: ReportFixtures, service: ReportsService;
  const clock = new Clock();
  let orgId: string;
  const links: Record<string, { id: string; shortCode: string }> = {};

  const get = (organizationId: string, period: string) =>
    service.get({ organizationId, role: Role.OWNER }, period, false);

  beforeAll(async () => {
    env = await createTestEnv();
    fx = new ReportFixtures(env.prisma);
    const repo = new ReportsRepository(env.prisma);
    service = new ReportsService(repo, new ReportBuilder(new ReportDataRepository(PrismaReadService.create(env.config, env.prisma)), env.config), clock);
    jest.spyOn(clock, 'now').mockImplementation(() => NOW);

    orgId = (await fx.organization({ name: 'Acme Inc', tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') })).id;
    const oct = at('2026-10-01T00:00:00Z');
    links.l1 = await fx.link(orgId, { shortCode: 'spring01', title: 'Spring Sale', createdAt: oct, iosUrl: 'https://apps.apple.com/x' });
    links.l2 = await fx.link(orgId, { shortCode: 'code0002', createdAt: oct, androidUrl: 'https://play.google.com/x' });
    for (let i = 3; i <= 12; i++) {
      links[`l${i}`] = await fx.link(orgId, {
        shortCode: `code00${String(i).padStart(2, '0')}`,
        title: `Link ${i}`,
        createdAt: oct,
        expiresAt: i === 5 ? at('2026-11-15T00:00:00Z') : null,
        isActive: i !== 6,
      });
    }
    links.l13 = await fx.link(orgId, { shortCode: 'newpromo', title: 'New Promo', createdAt: at('2026-11-05T10:00:00Z') });
    links.l14 = await fx.link(orgId, { shortCode: 'december', createdAt: at('2026-12-02T10:00:00Z'), iosUrl: 'https://apps.apple.com/y' });
    links.l15 = await fx.link(orgId, { shortCode: 'oldlink1', title: 'Old', createdAt: at('2026-09-01T00:00:00Z') });

    // November: 150 + 80 + (3..12) = 305 non-bot clicks; bots only under 'bot'.
    await fx.rollup(orgId, links.l1.id, '2026-11-03', 100);
    await fx.rollup(orgId, links.l1.id, '2026-11-20', 50);
    await fx.rollup(orgId, links.l1.id, '2026-11-03', 999, 'bot');
    await fx.rollup(orgId, links.l2.id, '2026-11-03', 80);
    for (let i = 3; i <= 12; i++) await fx.rollup(orgId, links[`l${i}`].id, '2026-11-10', i);
    await fx.rollup(orgId, links.l1.id, '2026-11-03', 100, 'source', 'twitter.com');
    await fx.rollup(orgId, links.l1.id, '2026-11-20', 50, 'source', 'Direct');
    await fx.rollup(orgId, links.l2.id, '2026-11-03', 80, 'source', 'newsletter');
    await fx.rollup(orgId, links.l1.id, '2026-11-03', 100, 'country', 'US');
    await fx.rollup(orgId, links.l2.id, '2026-11-03', 80, 'country', 'DE');
    await fx.rollup(orgId, links.l1.id, '2026-11-20', 50, 'country', 'US');
    await fx.rollup(orgId, links.l3.id, '2026-11-10', 3, 'country', '');
    await fx.rollup(orgId, links.l1.id, '2026-11-03', 100, 'device', 'mobile');
    await fx.rollup(orgId, links.l2.id, '2026-11-03', 80, 'device', 'desktop');
    // October (prior): 100 clicks; December (live): 10 clicks.
    await fx.rollup(orgId, links.l1.id, '2026-10-15', 100);
    await fx.rollup(orgId, links.l1.id, '2026-12-02', 10);
    // Unique visitors: 3 in November, 2 in October.
    await fx.visitor(orgId, links.l1.id, '2026-11-03', 'a');
    await fx.visitor(orgId, links.l1.id, '2026-11-04', 'a');
    await fx.visitor(orgId, links.l2.id, '2026-11-03', 'b');
    await fx.visitor(orgId, links.l1.id, '2026-11-20', 'c');
    await fx.visitor(orgId, links.l1.id, '2026-10-15', 'a');
    await fx.visitor(orgId, links.l1.id, '2026-10-15', 'd');

    // SDK: 4 installs in November (2 attributed), 2 in October; 5 sessions in November.
    const app = await fx.app(orgId);
    const i1 = await fx.install(orgId, app, { platform: 'ios', createdAt: at('2026-11-02T00:00:00Z'), linkId: links.l1.id });
    const i2 = await fx.install(orgId, app, { platform: 'ios', createdAt: at('2026-11-03T00:00:00Z'), linkId: links.l2.id });
    await fx.install(orgId, app, { platform: 'ios', createdAt: at('2026-11-04T00:00:00Z') });
    await fx.install(orgId, app, { platform: 'android', createdAt: at('2026-11-30T23:59:59Z') });
    await fx.install(orgId, app, { platform: 'ios', createdAt: at('2026-10-04T00:00:00Z') });
    await fx.install(orgId, app, { platform: 'android', createdAt: at('2026-10-31T23:59:59Z') });
    for (let d = 1; d <= 5; d++) await fx.session(orgId, app, i1, at(`2026-11-0${d}T08:00:00Z`));
    const ev = (installId: string, name: string, iso: string, more: Partial<Parameters<ReportFixtures['event']>[2]> = {}) =>
      fx.event(orgId, app, { installId, name, at: at(iso), ...more });
    await ev(i1, 'revenue', '2026-11-05T00:00:00Z', { revenue: 10.5, currency: 'USD' });
    await ev(i1, 'revenue', '2026-11-06T00:00:00Z', { revenue: 4.5, currency: 'USD' });
    await ev(i2, 'revenue', '2026-11-07T00:00:00Z', { revenue: 7, currency: 'EUR' });
    await ev(i1, 'level_up', '2026-11-08T00:00:00Z');
    await ev(i2, 'level_up', '2026-11-09T00:00:00Z');
    await ev(i2, 'level_up', '2026-11-10T00:00:00Z');
    for (let k = 0; k < 5; k++) await ev(i1, 'signup', '2026-11-11T00:00:00Z', { attributed: false });
    await ev(i1, 'revenue', '2026-10-20T00:00:00Z', { revenue: 20, currency: 'USD' });

    // Pixel: 4 pageviews and 1 conversion (25 USD, tied to a link) in November; 2 pageviews in October.
    const site = await fx.pixelSite(orgId);
    for (const url of ['https://acme.com/pricing?x=1', 'https://acme.com/pricing', 'https://acme.com/blog#top', 'https://acme.com/pricing']) {
      await fx.pixelEvent(orgId, site, { type: 'pageview', url, at: at('2026-11-12T00:00:00Z') });
    }
    await fx.pixelEvent(orgId, site, { type: 'conversion', url: 'https://acme.com/thanks', at: at('2026-11-12T01:00:00Z'), value: 25, currency: 'usd', linkId: links.l1.id });
    await fx.pixelEvent(orgId, site, { type: 'pageview', url: 'https://acme.com/', at: at('2026-10-12T00:00:00Z') });
    await fx.pixelEvent(orgId, site, { type: 'pageview', url: 'https://acme.com/', at: at('2026-10-13T00:00:00Z') });
  });

  afterAll(() => closeAll(env));

  describe('a finished month with every stream', () => {
    let r: MonthlyReportDto;
    beforeAll(async () => {
      r = await get(orgId, '2026-11');
    });

    it('names the organization and the period', () => {
      expect(r.organization).toEqual({ id: orgId, name: 'Acme Inc', slug: expect.stringMatching(/^org-/), tier: 'PRO' });
      expect(r.period).toEqual({
        type: 'month',
        start: '2026-11-01T00:00:00.000Z',
        end: '2026-12-01T00:00:00.000Z',
        label: 'November 2026',
        priorLabel: 'October 2026',
      });
      expect(r.generatedAt).toBe(NOW.toISOString());
    });

    it('counts clicks from rollups without bots, with the prior month and deltaPct rounded to one decimal', () => {
      expect(r.kpis.clicks).toEqual({ value: 305, prior: 100, deltaPct: 205 });
      expect(r.kpis.uniques).toEqual({ value: 3, prior: 2, deltaPct: 50 });
      expect(r.kpis.installs).toEqual({ value: 4, prior: 2, deltaPct: 100 });
      expect(r.kpis.sessions).toEqual({ value: 5, prior: 0, deltaPct: null });
    });

    it('lists every day of the month and the best day', () => {
      expect(r.daily).toHaveLength(30);
      expect(r.daily[0]).toEqual({ day: '2026-11-01', clicks: 0 });
      expect(r.daily[2]).toEqual({ day: '2026-11-03', clicks: 180 });
      expect(r.daily[9]).toEqual({ day: '2026-11-10', clicks: 75 });
      expect(r.daily[19]).toEqual({ day: '2026-11-20', clicks: 50 });
      expect(r.daily.reduce((s, d) => s + d.clicks, 0)).toBe(305);
      expect(r.bestDay).toEqual({ day: '2026-11-03', clicks: 180 });
    });

    it('ranks the top 10 links with title or short code and short URL; the rest go to otherLinks', () => {
      expect(r.topLinks).toHaveLength(10);
      expect(r.topLinks[0]).toEqual({ label: 'Spring Sale', sublabel: 'http://sho.rt/spring01', value: 150, share: 0.4918 });
      expect(r.topLinks[1]).toEqual({ label: 'code0002', sublabel: 'http://sho.rt/code0002', value: 80, share: 0.2623 });
      expect(r.topLinks.slice(2).map((l) => l.value)).toEqual([12, 11, 10, 9, 8, 7, 6, 5]);
      expect(r.topLinks[2]).toEqual({ label: 'Link 12', sublabel: 'http://sho.rt/code0012', value: 12, share: 0.0393 });
      expect(r.otherLinks).toEqual({ count: 2, clicks: 7 });
      expect(r.zeroClickLinks).toBe(2);
    });

    it('breaks clicks down by source, country and device with share fractions', () => {
      expect(r.sources).toEqual([
        { label: 'twitter.com', value: 100, share: 0.3279 },
        { label: 'newsletter', value: 80, share: 0.2623 },
        { label: 'Direct', value: 50, share: 0.1639 },
      ]);
      expect(r.countries).toEqual([
        { label: 'United States', value: 150, share: 0.4918 },
        { label: 'Germany', value: 80, share: 0.2623 },
        { label: 'Unknown', value: 3, share: 0.0098 },
      ]);
      expect(r.devices).toEqual([
        { label: 'Mobile', value: 100, share: 0.3279 },
        { label: 'Desktop', value: 80, share: 0.2623 },
      ]);
    });

    it('reports installs by platform and attribution', () => {
      expect(r.installs).toEqual({
        byPlatform: [
          { label: 'iOS', value: 3, share: 0.75 },
          { label: 'Android', value: 1, share: 0.25 },
        ],
        attributed: 2,
        attributionRate: 0.5,
      });
    });

    it('reports attributed events, revenue per currency with prior, conversions and per-install rate', () => {
      expect(r.events).toEqual({
        total: { value: 7, prior: 1, deltaPct: 600 },
        byName: [
          { label: 'level_up', sublabel: '2 installs', value: 3, share: 0.4286 },
          { label: 'revenue', sublabel: '2 installs', value: 3, share: 0.4286 },
          { label: 'website conversion', sublabel: 'Website pixel', value: 1, share: 0.1429 },
        ],
        revenue: [
          { currency: 'USD', amount: 40, prior: 20 },
          { currency: 'EUR', amount: 7, prior: 0 },
        ],
        conversions: 4,
        perInstall: 1.5,
      });
    });

    it('reports the website pixel', () => {
      expect(r.pixel).toEqual({
        pageviews: { value: 4, prior: 2, deltaPct: 100 },
        conversions: { value: 1, prior: 0, deltaPct: null },
        attributedConversions: 1,
        conversionRate: 0.25,
        value: [{ currency: 'USD', amount: 25, prior: 0 }],
        topPages: [
          { label: 'https://acme.com/pricing', value: 3, share: 0.75 },
          { label: 'https://acme.com/blog', value: 1, share: 0.25 },
        ],
      });
    });

    it('reports housekeeping', () => {
      expect(r.housekeeping).toEqual({
        linksCreated: ['New Promo'],
        linksExpired: ['Link 5'],
        linksDisabled: 1,
        linksWithStoreUrls: 2,
      });
    });

    it('derives insights and up to 3 actions from the numbers', () => {
      expect(r.insights.headline).toBe('305 clicks in November 2026, up 205% on October 2026.');
      expect(r.insights.links).toEqual([
        '“Spring Sale” led with 150 clicks (49.2% of all clicks).',
        'Busiest day: Tuesday, November 3 with 180 clicks.',
        'twitter.com was the top source (32.8% of clicks).',
        'Most visitors came from United States (49.2%).',
        '2 links had no clicks.',
      ]);
      expect(r.insights.events).toEqual([
        '4 installs, up 100% on October 2026; 50% attributed to a link.',
        '7 events tracked, up 600% on October 2026.',
        'Most frequent event: level_up (3).',
        'Revenue $40.00 (USD).',
        'Revenue €7.00 (EUR).',
        'Website: 4 pageviews and 1 conversion (25% conversion rate).',
      ]);
      expect(r.insights.actions).toEqual([
        { title: 'Review idle links', body: '2 links had no clicks: archive or promote them.' },
        { title: 'Renew expired links', body: '1 link expired this month: extend them or point visitors elsewhere.' },
      ]);
    });
  });

  describe('the live month', () => {
    it('runs through today and compares with the same days of the prior month', async () => {
      const r = await get(orgId, '2026-12');
      expect(r.daily).toHaveLength(15);
      expect(r.daily[1]).toEqual({ day: '2026-12-02', clicks: 10 });
      // Prior window: November 1-15 (180 + 75).
      expect(r.kpis.clicks).toEqual({ value: 10, prior: 255, deltaPct: -96.1 });
      expect(r.kpis.sessions).toEqual({ value: 0, prior: 5, deltaPct: -100 });
      expect(r.period.label).toBe('December 2026');
      const stored = await env.prisma.monthlyReport.count({ where: { organizationId: orgId, period: '2026-12' } });
      expect(stored).toBe(0);
    });
  });

  describe('stream rules', () => {
    it('sections are null when the workspace never had the stream (no SDK, no pixel)', async () => {
      const org = await fx.organization({ tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') });
      const r = await get(org.id, '2026-11');
      expect(r.kpis.installs).toBeNull();
      expect(r.kpis.sessions).toBeNull();
      expect(r.installs).toBeNull();
      expect(r.pixel).toBeNull();
      expect(r.events).toBeNull();
      expect(r.kpis.clicks).toEqual({ value: 0, prior: 0, deltaPct: null });
      expect(r.bestDay).toBeNull();
      expect(r.topLinks).toEqual([]);
      expect(r.otherLinks).toEqual({ count: 0, clicks: 0 });
      expect(r.insights.headline).toBe('No clicks in November 2026 yet.');
      expect(r.insights.actions.map((a) => a.title)).toEqual(['Add the mobile SDK', 'Install the website pixel']);
    });

    it('an SDK that sent data in another month gives installs, sessions and events with zeros', async () => {
      const org = await fx.organization({ tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') });
      const app = await fx.app(org.id);
      await fx.install(org.id, app, { platform: 'ios', createdAt: at('2026-08-01T00:00:00Z') });
      const r = await get(org.id, '2026-11');
      expect(r.kpis.installs).toEqual({ value: 0, prior: 0, deltaPct: null });
      expect(r.kpis.sessions).toEqual({ value: 0, prior: 0, deltaPct: null });
      expect(r.installs).toEqual({ byPlatform: [], attributed: 0, attributionRate: 0 });
      expect(r.events).toEqual({
        total: { value: 0, prior: 0, deltaPct: null },
        byName: [],
        revenue: [],
        conversions: 0,
        perInstall: null,
      });
      expect(r.pixel).toBeNull();
    });

    it('an app registered but silent does not count as a stream', async () => {
      const org = await fx.organization({ tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') });
      await fx.app(org.id);
      await fx.pixelSite(org.id);
      const r = await get(org.id, '2026-11');
      expect(r.installs).toBeNull();
      expect(r.pixel).toBeNull();
      expect(r.events).toBeNull();
    });

    it('a pixel alone gives pixel and events (website conversions) but no installs', async () => {
      const org = await fx.organization({ tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') });
      const site = await fx.pixelSite(org.id);
      await fx.pixelEvent(org.id, site, { type: 'conversion', url: 'https://a.com/', at: at('2026-11-02T00:00:00Z'), value: 5, currency: 'GBP' });
      const r = await get(org.id, '2026-11');
      expect(r.installs).toBeNull();
      expect(r.kpis.installs).toBeNull();
      expect(r.pixel).toMatchObject({ pageviews: { value: 0, prior: 0, deltaPct: null }, conversions: { value: 1, prior: 0, deltaPct: null }, conversionRate: 0 });
      expect(r.events).toEqual({
        total: { value: 1, prior: 0, deltaPct: null },
        byName: [{ label: 'website conversion', sublabel: 'Website pixel', value: 1, share: 1 }],
        revenue: [{ currency: 'GBP', amount: 5, prior: 0 }],
        conversions: 1,
        perInstall: null,
      });
    });
  });

  describe('uniques and plan history', () => {
    it('is null when the plan keeps less raw history than the month (FREE: 30 days)', async () => {
      const org = await fx.organization({ tier: Tier.FREE, createdAt: at('2026-01-01T00:00:00Z') });
      const link = await fx.link(org.id, { createdAt: at('2026-10-01T00:00:00Z') });
      await fx.visitor(org.id, link.id, '2026-11-20', 'x');
      await fx.visitor(org.id, link.id, '2026-12-01', 'x');
      await fx.visitor(org.id, link.id, '2026-12-02', 'y');
      expect((await get(org.id, '2026-11')).kpis.uniques).toBeNull();
      // December: history (30 days back from Dec 15) reaches Dec 1 but not Nov 1, so no prior.
      expect((await get(org.id, '2026-12')).kpis.uniques).toEqual({ value: 2, prior: null, deltaPct: null });
    });

    it('BUSINESS keeps 3 years', async () => {
      const org = await fx.organization({ tier: Tier.BUSINESS, createdAt: at('2024-01-01T00:00:00Z') });
      const link = await fx.link(org.id, { createdAt: at('2024-01-01T00:00:00Z') });
      await fx.visitor(org.id, link.id, '2025-11-20', 'x');
      const r = await get(org.id, '2025-11');
      expect(r.kpis.uniques).toEqual({ value: 1, prior: 0, deltaPct: null });
    });
  });

  it('rounds deltaPct to one decimal and shows declines as negative', async () => {
    const org = await fx.organization({ tier: Tier.PRO, createdAt: at('2026-01-01T00:00:00Z') });
    const link = await fx.link(org.id, { createdAt: at('2026-01-01T00:00:00Z') });
    await fx.rollup(org.id, link.id, '2026-10-10', 3);
    await fx.rollup(org.id, link.id, '2026-11-10', 2);
    const r = await get(org.id, '2026-11');
    expect(r.kpis.clicks).toEqual({ value: 2, prior: 3, deltaPct: -33.3 });
    expect(r.insights.headline).toBe('2 clicks in November 2026, down 33.3% on October 2026.');
    expect(r.insights.actions[0]).toEqual({
      title: 'Win back traffic',
      body: 'Clicks fell 33.3% on October 2026: reshare your top links or refresh campaigns.',
    });
  });
});
