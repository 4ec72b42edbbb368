import { LeadInput, LeadsRepository, SaleInput, SalesRepository } from '@dl/conversions';
import { PrismaReadService, Tier } from '@dl/platform/db';
import { createTestEnv, ReportFixtures, TestEnv } from '@dl/testing';
import { renderReportEmail } from './email/report-email';
import { addDays, addMonths, Period, periodEnd, periodOf, periodStart } from './period';
import { ReportBuilder } from './report.builder';
import { ReportDataRepository } from './report-data.repository';
import { ReportsRepository } from './reports.repository';

// Leads are stamped with the database's now(), so the report is of the current UTC month, built as finished.
const period: Period = periodOf(new Date());
const inMonth = (p: Period, day: number) => addDays(periodStart(p), day - 1);

describe('monthly report: conversions', () => {
  let env: TestEnv, fx: ReportFixtures, builder: ReportBuilder, orgs: ReportsRepository;
  let sales: SalesRepository, leads: LeadsRepository;
  const ids: Record<string, string> = {};
  const links: Record<string, { id: string; shortCode: string }> = {};

  const sale = (organizationId: string, invoiceId: string, amount: number, currency: string, linkId: string | null, createdAt: Date): SaleInput => ({
    organizationId, customerExternalId: null, linkId, countryCode: null, utmCampaign: null, amount, currency, eventName: 'Purchase',
    invoiceId, paymentProcessor: null, source: 'api', metadata: null, createdAt,
  });
  const lead = (externalId: string, linkId: string): LeadInput => ({
    externalId, name: null, email: null, clickId: null, linkId, clickedAt: null, countryCode: 'US', utmCampaign: null,
    eventName: 'Sign up', metadata: null, source: 'api',
  });
  const build = async (organizationId: string) => {
    const org = await orgs.findOrganization(organizationId);
    return builder.build(org!, period, addDays(periodEnd(period), 3), false);
  };

  beforeAll(async () => {
    env = await createTestEnv();
    fx = new ReportFixtures(env.prisma);
    orgs = new ReportsRepository(env.prisma);
    builder = new ReportBuilder(new ReportDataRepository(PrismaReadService.create(env.config, env.prisma)), env.config);
    sales = new SalesRepository(env.prisma);
    leads = new LeadsRepository(env.prisma);
    const createdAt = periodStart(addMonths(period, -3));
    for (const [name, tier] of [['acme', Tier.PRO], ['other', Tier.PRO], ['free', Tier.FREE], ['quiet', Tier.BUSINESS]] as const) {
      ids[name] = (await fx.organization({ name, tier, createdAt })).id;
    }
    links.spring = await fx.link(ids.acme, { title: 'Spring Sale', createdAt });
    links.gear = await fx.link(ids.acme, { title: 'Bikes & <Gear>', createdAt });
    links.bare = await fx.link(ids.acme, { createdAt });
    links.theirs = await fx.link(ids.other, { title: 'Theirs', createdAt });

    const cur = (day: number) => inMonth(period, day);
    const prior = inMonth(addMonths(period, -1), 10);
    await sales.insertBatch([
      sale(ids.acme, 'a1', 4900, 'USD', links.spring.id, cur(1)),
      sale(ids.acme, 'a2', 4900, 'USD', links.spring.id, cur(2)),
      sale(ids.acme, 'a3', 3000, 'USD', links.gear.id, cur(2)),
      sale(ids.acme, 'a4', 2000, 'EUR', links.spring.id, cur(3)),
      sale(ids.acme, 'a5', 500, 'EUR', null, cur(3)),
      sale(ids.acme, 'a6', 7000, 'EUR', links.gear.id, cur(4)),
      sale(ids.acme, 'a7', 150000, 'JPY', links.bare.id, cur(4)),
      sale(ids.acme, 'p1', 1500, 'USD', links.spring.id, prior),
      sale(ids.other, 'a1', 99900, 'USD', links.theirs.id, cur(2)),
      sale(ids.other, 'o2', 5000, 'GBP', links.theirs.id, cur(2)),
      sale(ids.free, 'f1', 1000, 'USD', null, cur(2)),
    ]);
    await sales.refund(ids.acme, 'a1', 1000, 're_1');
    await sales.refund(ids.acme, 'a6', 500, 're_2');
    await sales.refund(ids.acme, 'a7', null, null); // the whole JPY sale: its currency stays with net 0
    await sales.refund(ids.acme, 'p1', 200, 're_3'); // nets the prior month, where the sale was
    await sales.refund(ids.other, 'a1', 900, 're_1');
    await leads.trackLead(ids.acme, lead('cus_1', links.spring.id));
    await leads.trackLead(ids.acme, lead('cus_2', links.gear.id));
    await leads.trackLead(ids.other, lead('cus_1', links.theirs.id));
  });
  afterAll(() => env?.teardown());

  it('counts leads and sales, nets refunds per currency and ranks links within each currency, without other organizations', async () => {
    const base = env.config.SHORT_LINK_BASE_URL.replace(/\/+$/, '');
    const row = (l: { shortCode: string }, label: string, salesCount: number, net: number) => ({ label, sublabel: `${base}/${l.shortCode}`, sales: salesCount, net });
    const report = await build(ids.acme);
    expect(report.conversions).toEqual({
      leads: { value: 2, prior: 0, deltaPct: null },
      sales: { value: 7, prior: 1, deltaPct: 600 },
      revenue: [
        {
          currency: 'EUR', sales: 3, amount: 9500, refunded: 500, net: 9000, prior: 0,
          topLinks: [row(links.gear, 'Bikes & <Gear>', 1, 6500), row(links.spring, 'Spring Sale', 1, 2000)],
        },
        {
          currency: 'USD', sales: 3, amount: 12800, refunded: 1000, net: 11800, prior: 1300,
          topLinks: [row(links.spring, 'Spring Sale', 2, 8800), row(links.gear, 'Bikes & <Gear>', 1, 3000)],
        },
        { currency: 'JPY', sales: 1, amount: 150000, refunded: 150000, net: 0, prior: 0, topLinks: [row(links.bare, links.bare.shortCode, 1, 0)] },
      ],
    });
  });

  it('is null on the FREE plan and for an organization that never recorded a conversion', async () => {
    expect((await build(ids.free)).conversions).toBeNull();
    expect((await build(ids.quiet)).conversions).toBeNull();
    expect((await build(ids.other)).conversions?.revenue.map((r) => [r.currency, r.net])).toEqual([['GBP', 5000], ['USD', 99000]]);
  });

  it('renders the section in the email, money in each currency’s units and labels escaped', async () => {
    const { html, text } = renderReportEmail(await build(ids.acme));
    expect(html).toContain('>Conversions<');
    expect(html).toContain('Revenue <strong>€90.00</strong> net');
    expect(html).toContain('Revenue <strong>$118.00</strong> net');
    expect(html).toContain('¥150,000 refunded');
    expect(html).toContain('Bikes &amp; &lt;Gear&gt;');
    expect(html).not.toContain('<Gear>');
    expect(text).toContain('Revenue USD: $118.00 net, $10.00 refunded (prior $13.00)');
    expect(text).toContain('    - Spring Sale (');
  });
});
