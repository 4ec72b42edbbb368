import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, ReportFixtures, useTestEnv, seedOrganization } from '@dl/testing';
import { NO_LINK } from './conversion.records';
import { ConversionsReadRepository } from './conversions-read.repository';
import { LeadsRepository } from './leads.repository';
import { SalesRepository } from './sales.repository';

const today = () => new Date().toISOString().slice(0, 10);

describe(ConversionsReadRepository.name, () => {
  // One lead and one sale of customer cus_1 on a link of acme (today, GB, campaign spring), 7 clicks on it.
  const t = useTestEnv({}, async (env) => {
    const [acme, other] = [await seedOrganization(env, { tier: 'PRO' }), await seedOrganization(env, { tier: 'PRO' })];
    const org = acme.organization.id;
    const link = await new ClickFixtures(env.prisma).useOwner(org, acme.owner.user.id, acme.template.id).link(org, { title: 'Spring' });
    await new LeadsRepository(env.prisma).trackLead(org, {
      externalId: 'cus_1', name: null, email: null, clickId: null, linkId: link.id, clickedAt: null,
      countryCode: 'GB', utmCampaign: 'spring', eventName: 'Sign up', metadata: null, source: 'api',
    });
    const [sale] = await new SalesRepository(env.prisma).insertBatch([
      { organizationId: org, customerExternalId: 'cus_1', linkId: null, countryCode: null, utmCampaign: null, amount: 4900, currency: 'USD',
        eventName: 'Purchase', invoiceId: 'in_1', paymentProcessor: null, source: 'api', metadata: null, createdAt: new Date() },
    ]);
    if (sale.kind !== 'created') throw new Error(`arranging the sale: ${sale.kind}`);
    await new ReportFixtures(env.prisma).rollup(org, link.id, today(), 7);
    return { repo: new ConversionsReadRepository(env.prisma), acme, other, org, link };
  });
  const window = () => ({ from: today(), to: today() });
  const byCurrency = <T extends { currency: string }>(rows: T[]) => [...rows].sort((a, b) => a.currency.localeCompare(b.currency));

  it('sums leads and sales per currency, org-wide and per link, campaign and day; counts clicks and customers', async () => {
    const lead = { key: '', currency: '', leads: 1, sales: 0, amount: 0, refunded: 0 };
    const sale = { key: '', currency: 'USD', leads: 0, sales: 1, amount: 4900, refunded: 0 };
    expect(byCurrency(await t.repo.aggregate(t.org, window(), null))).toEqual([lead, sale]);
    expect(byCurrency(await t.repo.aggregate(t.org, window(), 'link'))).toEqual([{ ...lead, key: t.link.id }, { ...sale, key: t.link.id }]);
    expect(byCurrency(await t.repo.aggregate(t.org, { ...window(), utmCampaign: 'spring' }, 'day'))).toEqual([{ ...lead, key: today() }, { ...sale, key: today() }]);
    expect(await t.repo.aggregate(t.org, { ...window(), utmCampaign: 'autumn' }, null)).toEqual([]);
    expect(byCurrency(await t.repo.linkTotals(t.org, t.link.id, today(), today()))).toEqual([lead, sale]);

    expect(await t.repo.clicks(t.org, window(), null)).toEqual(new Map([['', 7]]));
    expect(await t.repo.clicks(t.org, window(), 'link')).toEqual(new Map([[t.link.id, 7]]));
    expect(await t.repo.customers(t.org, window())).toEqual({ customers: 1, paying: 1 });
    expect(await t.repo.linkLabels(t.org, [t.link.id, NO_LINK])).toEqual(new Map([[t.link.id, { shortCode: t.link.shortCode, title: 'Spring' }]]));
  });

  it('exports leads and sales oldest first, a page after a cursor', async () => {
    const rows = await t.repo.exportPage(t.org, window(), null, 10);
    expect(rows).toEqual([
      { type: 'lead', id: expect.any(String), createdAt: expect.any(Date), customerExternalId: 'cus_1', linkId: t.link.id, shortCode: t.link.shortCode, eventName: 'Sign up', amount: null, refunded: null, currency: null, invoiceId: null, source: '' },
      { type: 'sale', id: expect.any(String), createdAt: expect.any(Date), customerExternalId: 'cus_1', linkId: t.link.id, shortCode: t.link.shortCode, eventName: 'Purchase', amount: 4900, refunded: 0, currency: 'USD', invoiceId: 'in_1', source: 'api' },
    ]);
    expect(await t.repo.exportPage(t.org, window(), rows[0], 10)).toEqual([rows[1]]);
    expect(await t.repo.exportPage(t.org, window(), null, 1)).toEqual([rows[0]]);
  });

  it("another organization sees none of it: no sums, clicks, customers, labels or export rows, even naming the link", async () => {
    const foreign = t.other.organization.id;
    expect(await t.repo.aggregate(foreign, window(), null)).toEqual([]);
    expect(await t.repo.linkTotals(foreign, t.link.id, today(), today())).toEqual([]);
    expect(await t.repo.clicks(foreign, { ...window(), linkId: t.link.id }, 'link')).toEqual(new Map());
    expect(await t.repo.customers(foreign, window())).toEqual({ customers: 0, paying: 0 });
    expect(await t.repo.linkLabels(foreign, [t.link.id])).toEqual(new Map());
    expect(await t.repo.exportPage(foreign, { ...window(), linkId: t.link.id }, null, 10)).toEqual([]);
  });

  it('a link filter that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.aggregate(t.org, { ...window(), linkId: 'nope' }, null)))).toBe('22P02');
  });
});
