import { ClickFixtures, seedOrganization, useTestEnv } from '@dl/testing';
import { LeadInput, LeadsRepository } from './leads.repository';
import { SaleInput, SalesRepository } from './sales.repository';

describe('conversions repositories', () => {
  const t = useTestEnv({}, async (env) => {
    const [acme, other] = [await seedOrganization(env, { tier: 'PRO' }), await seedOrganization(env, { tier: 'PRO' })];
    const fixtures = new ClickFixtures(env.prisma)
      .useOwner(acme.organization.id, acme.owner.user.id, acme.template.id)
      .useOwner(other.organization.id, other.owner.user.id, other.template.id);
    const link = await fixtures.link(acme.organization.id);
    return { leads: new LeadsRepository(env.prisma), sales: new SalesRepository(env.prisma), acme, other, fixtures, link };
  });

  const org = () => t.acme.organization.id;
  const leadInput = (externalId: string, overrides: Partial<LeadInput> = {}): LeadInput => ({
    externalId,
    name: null,
    email: null,
    clickId: null,
    linkId: t.link.id,
    clickedAt: null,
    countryCode: 'GB',
    utmCampaign: 'spring',
    eventName: 'Sign up',
    metadata: null,
    source: 'api',
    ...overrides,
  });
  const saleInput = (externalId: string | null, overrides: Partial<SaleInput> = {}): SaleInput => ({
    organizationId: org(),
    customerExternalId: externalId,
    linkId: null,
    countryCode: null,
    utmCampaign: null,
    amount: 4900,
    currency: 'USD',
    eventName: 'Purchase',
    invoiceId: null,
    paymentProcessor: null,
    source: 'api',
    metadata: null,
    createdAt: new Date(),
    ...overrides,
  });
  const daily = () =>
    t.env.prisma.conversionDaily.findMany({ where: { organizationId: org() }, orderBy: [{ currency: 'asc' }, { source: 'asc' }] });

  it('finds the organization’s click with its link’s window; another organization’s click is missing', async () => {
    const click = await t.fixtures.click({ id: t.link.id, organizationId: org() }, { countryCode: 'SE' });
    expect(await t.leads.findClick(org(), click.id)).toEqual({
      clickId: click.id,
      linkId: t.link.id,
      clickedAt: click.clickedAt,
      attributionWindowHours: 168,
      countryCode: 'SE',
      utmCampaign: null,
    });
    expect(await t.leads.findClick(t.other.organization.id, click.id)).toBeNull();
    expect(await t.leads.findClick(org(), 'not-a-uuid')).toBeNull();
  });

  it('creates a customer once, keeps its first attribution, and answers the existing lead for the same event name', async () => {
    const first = await t.leads.trackLead(org(), leadInput('cus_1', { name: 'Ada', metadata: { plan: 'pro' } }));
    expect(first.created).toBe(true);
    expect(first.customer).toMatchObject({ externalId: 'cus_1', name: 'Ada', linkId: t.link.id, firstLeadAt: first.lead.createdAt });
    expect(first.lead).toMatchObject({ eventName: 'Sign up', linkId: t.link.id, metadata: { plan: 'pro' } });

    const again = await t.leads.trackLead(org(), leadInput('cus_1', { linkId: null, email: 'ada@example.com' }));
    expect(again.created).toBe(false);
    expect(again.lead.id).toBe(first.lead.id);
    expect(again.customer).toMatchObject({ id: first.customer.id, linkId: t.link.id, name: 'Ada', email: 'ada@example.com' });

    const second = await t.leads.trackLead(org(), leadInput('cus_1', { eventName: 'Trial started' }));
    expect(second.created).toBe(true);
    // The same external id in another organization is another customer.
    const foreign = await t.leads.trackLead(t.other.organization.id, leadInput('cus_1', { linkId: null }));
    expect(foreign.customer.id).not.toBe(first.customer.id);
    expect(await t.leads.findCustomer(t.other.organization.id, 'cus_1')).toMatchObject({ id: foreign.customer.id, linkId: null });
  });

  it('stores a batch of sales once per invoice id, refuses unknown and foreign customers, and grows the rollup', async () => {
    await t.leads.trackLead(org(), leadInput('cus_2'));
    await t.leads.trackLead(t.other.organization.id, leadInput('cus_other', { linkId: null }));
    const outcomes = await t.sales.insertBatch([
      saleInput('cus_2', { invoiceId: 'in_1' }),
      saleInput('cus_2', { invoiceId: 'in_1', amount: 1 }),
      saleInput('nobody'),
      saleInput('cus_other'),
      saleInput('cus_2', { amount: 1000, currency: 'eur' }),
      saleInput(null, { linkId: t.link.id, source: 'pixel', amount: 250, countryCode: 'US' }),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(['created', 'existing', 'unknownCustomer', 'unknownCustomer', 'created', 'created']);
    const [first, repeat, , , euro, pixel] = outcomes as Array<{ kind: string; sale: { id: string; amount: number; currency: string; linkId: string | null } }>;
    expect(first.sale).toMatchObject({ amount: 4900, currency: 'USD', linkId: t.link.id, invoiceId: 'in_1', refunded: 0, source: 'api' });
    expect(repeat.sale.id).toBe(first.sale.id);
    expect(euro.sale).toMatchObject({ amount: 1000, currency: 'EUR' });
    expect(pixel.sale).toMatchObject({ linkId: t.link.id, customerId: null, source: 'pixel' });
    expect(await t.sales.insertBatch([saleInput('cus_2', { invoiceId: 'in_1' })])).toEqual([{ kind: 'existing', sale: first.sale }]);

    const rows = (await daily()).filter((r) => r.currency !== '');
    expect(rows.map((r) => [r.currency, r.source, r.countryCode, r.utmCampaign, r.sales, Number(r.amount)])).toEqual([
      ['EUR', 'api', 'GB', 'spring', 1, 1000],
      ['USD', 'api', 'GB', 'spring', 1, 4900],
      ['USD', 'pixel', 'US', '', 1, 250],
    ]);
  });

  it('refunds at most what was paid, once per sender refund id, netting the sale’s day', async () => {
    await t.leads.trackLead(org(), leadInput('cus_3'));
    await t.sales.insertBatch([saleInput('cus_3', { invoiceId: 'in_r', amount: 3000, currency: 'GBP' })]);
    expect(await t.sales.refund(t.other.organization.id, 'in_r', null, null)).toEqual({ kind: 'unknownSale' });
    expect(await t.sales.refund(org(), 'in_r', 3001, null)).toEqual({ kind: 'tooMuch', remaining: 3000 });
    const part = await t.sales.refund(org(), 'in_r', 1000, 're_1');
    expect(part).toMatchObject({ kind: 'created', refund: { amount: 1000, externalId: 're_1' }, sale: { refunded: 1000 } });
    expect(await t.sales.refund(org(), 'in_r', 1000, 're_1')).toMatchObject({ kind: 'existing', sale: { refunded: 1000 } });
    expect(await t.sales.refund(org(), 'in_r', null, null)).toMatchObject({ kind: 'created', refund: { amount: 2000 }, sale: { refunded: 3000 } });
    expect(await t.sales.refund(org(), 'in_r', null, null)).toEqual({ kind: 'tooMuch', remaining: 0 });
    const gbp = (await daily()).find((r) => r.currency === 'GBP')!;
    expect([gbp.sales, Number(gbp.amount), Number(gbp.refunded)]).toEqual([1, 3000, 3000]);
  });

  it('counts each sale once under concurrent batches with repeated invoice ids', async () => {
    await t.leads.trackLead(org(), leadInput('cus_4', { countryCode: 'FR' }));
    const batches = Array.from({ length: 8 }, () =>
      t.sales.insertBatch(Array.from({ length: 50 }, (_, n) => saleInput('cus_4', { invoiceId: `race_${n}`, amount: 100, currency: 'CHF' }))),
    );
    const outcomes = (await Promise.all(batches)).flat();
    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(50);
    expect(outcomes.filter((o) => o.kind === 'existing')).toHaveLength(350);
    const chf = (await daily()).find((r) => r.currency === 'CHF')!;
    expect([chf.sales, Number(chf.amount)]).toEqual([50, 5000]);
  });

  it('keeps the organization’s rollup equal to the detailed one (leads, sales, amounts, refunds per day, source and currency)', async () => {
    const sum = (table: string) =>
      t.env.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
        `SELECT day, source, currency, sum(leads)::int AS leads, sum(sales)::int AS sales, sum(amount)::text AS amount, sum(refunded)::text AS refunded
           FROM ${table} WHERE organization_id = $1::uuid GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        org(),
      );
    const detailed = await sum('conversion_daily');
    expect(detailed.length).toBeGreaterThan(3);
    expect(await sum('conversion_org_daily')).toEqual(detailed);
  });
});
