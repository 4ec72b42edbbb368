import { PrismaReadService, sqlState } from '@dl/platform/db';
import { rejectionOf, ReportFixtures, useTestEnv } from '@dl/testing';
import { ReportDataRepository } from './report-data.repository';

const at = (iso: string) => new Date(iso);
const MAY = { start: at('2030-05-01T00:00:00Z'), end: at('2030-06-01T00:00:00Z') };
const APRIL = { start: at('2030-04-01T00:00:00Z'), end: at('2030-05-01T00:00:00Z') };

describe(ReportDataRepository.name, () => {
  const t = useTestEnv({}, async (env) => {
    const fx = new ReportFixtures(env.prisma);
    const acme = (await fx.organization({ createdAt: at('2030-01-01T00:00:00Z') })).id;
    const other = (await fx.organization({ createdAt: at('2030-01-01T00:00:00Z') })).id;
    const a = await fx.link(acme, { shortCode: 'spring01', title: 'Spring', createdAt: at('2030-03-01T00:00:00Z'), iosUrl: 'https://apps.apple.com/x' });
    const b = await fx.link(acme, { shortCode: 'quiet002', createdAt: at('2030-05-10T00:00:00Z'), expiresAt: at('2030-05-20T00:00:00Z'), isActive: false });
    await fx.rollup(acme, a.id, '2030-04-15', 4);
    await fx.rollup(acme, a.id, '2030-05-02', 6);
    await fx.rollup(acme, a.id, '2030-05-03', 1);
    await fx.rollup(acme, a.id, '2030-05-02', 5, 'country', 'GB');
    await fx.rollup(acme, a.id, '2030-05-03', 2, 'source', 'news.example');
    await fx.rollup(acme, a.id, '2030-05-02', 3, 'variant', '1');
    await fx.visitor(acme, a.id, '2030-05-02', 'h1');
    await fx.visitor(acme, a.id, '2030-05-03', 'h1');
    await fx.visitor(acme, a.id, '2030-05-03', 'h2');
    const app = await fx.app(acme);
    const install = await fx.install(acme, app, { platform: 'ios', createdAt: at('2030-05-05T00:00:00Z'), linkId: a.id });
    await fx.install(acme, app, { platform: 'android', createdAt: at('2030-05-06T00:00:00Z') });
    await fx.session(acme, app, install, at('2030-05-05T01:00:00Z'));
    await fx.event(acme, app, { installId: install, name: 'revenue', at: at('2030-05-07T00:00:00Z'), revenue: 20, currency: 'eur', linkId: a.id });
    await fx.event(acme, app, { installId: install, name: 'revenue', at: at('2030-04-07T00:00:00Z'), revenue: 5, currency: 'EUR', linkId: a.id });
    const site = await fx.pixelSite(acme);
    await fx.pixelEvent(acme, site, { type: 'pageview', url: 'https://example.com/p?x=1#top', at: at('2030-05-08T00:00:00Z') });
    await fx.pixelEvent(acme, site, { type: 'conversion', url: 'https://example.com/thanks', at: at('2030-05-08T00:00:00Z'), value: 9.5, currency: 'usd', linkId: a.id });
    return { repo: new ReportDataRepository(PrismaReadService.create(env.config, env.prisma)), fx, acme, other, a, b };
  });

  it('reads click totals, dimensions, controls, zero-click links, visitors and housekeeping of a month', async () => {
    expect(await t.repo.clickTotals(t.acme, { current: MAY, prior: APRIL })).toEqual({
      daily: [{ day: '2030-04-15', clicks: 4 }, { day: '2030-05-02', clicks: 6 }, { day: '2030-05-03', clicks: 1 }],
      links: [{ linkId: t.a.id, shortCode: 'spring01', title: 'Spring', clicks: 7 }],
    });
    expect(await t.repo.dimensionClicks(t.acme, MAY, ['country', 'source'])).toEqual([
      { dimension: 'country', value: 'GB', clicks: 5 },
      { dimension: 'source', value: 'news.example', clicks: 2 },
    ]);
    expect(await t.repo.linkControls(t.acme, MAY, [t.a.id])).toEqual({
      links: [{ id: t.a.id, variants: null, hasRules: false }],
      clicks: [{ linkId: t.a.id, dimension: 'variant', value: '1', clicks: 3 }],
    });
    expect(await t.repo.zeroClickLinks(t.acme, MAY)).toBe(1);
    expect(await t.repo.uniqueVisitors(t.acme, MAY)).toBe(2);
    expect(await t.repo.monthVisitors(t.acme, MAY.start)).toBe(2);
    expect(await t.repo.housekeeping(t.acme, MAY, 10)).toEqual({ created: ['quiet002'], expired: ['quiet002'], disabled: 1, withStoreUrls: 1 });
  });

  it('reads the SDK and pixel streams of a month', async () => {
    expect(await t.repo.streams(t.acme)).toEqual({ sdk: true, pixel: true });
    expect(await t.repo.installsByPlatform(t.acme, MAY)).toEqual([{ platform: 'android', installs: 1, attributed: 0 }, { platform: 'ios', installs: 1, attributed: 1 }]);
    expect([await t.repo.countInstalls(t.acme, MAY), await t.repo.countSessions(t.acme, MAY)]).toEqual([2, 1]);
    expect(await t.repo.eventsByName(t.acme, MAY)).toEqual([{ name: 'revenue', events: 1, installs: 1 }]);
    expect(await t.repo.countEvents(t.acme, MAY)).toEqual({ events: 1, revenueEvents: 1 });
    expect(await t.repo.revenue(t.acme, { current: MAY, prior: APRIL })).toEqual([{ currency: 'EUR', amount: 20, prior: 5 }]);
    expect(await t.repo.pixelCounts(t.acme, MAY)).toEqual({ pageviews: 1, conversions: 1, attributedConversions: 1 });
    expect(await t.repo.pixelValue(t.acme, { current: MAY, prior: APRIL })).toEqual([{ currency: 'USD', amount: 9.5, prior: 0 }]);
    expect(await t.repo.topPages(t.acme, MAY, 5)).toEqual([{ page: 'https://example.com/p', views: 1 }]);
  });

  it("another organization's links and streams answer as missing", async () => {
    expect(await t.repo.clickTotals(t.other, { current: MAY, prior: APRIL })).toEqual({ daily: [], links: [] });
    expect(await t.repo.linkControls(t.other, MAY, [t.a.id])).toEqual({ links: [], clicks: [] });
    expect(await t.repo.dimensionClicks(t.other, MAY, ['country'])).toEqual([]);
    expect(await t.repo.uniqueVisitors(t.other, MAY)).toBe(0);
    expect(await t.repo.streams(t.other)).toEqual({ sdk: false, pixel: false });
    expect(await t.repo.housekeeping(t.other, MAY, 10)).toEqual({ created: [], expired: [], disabled: 0, withStoreUrls: 0 });
  });

  it('a link id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.linkControls(t.acme, MAY, ['spring01'])))).toBe('22P02');
  });
});
