import { sqlState } from '@dl/platform/db';
import { rejectionOf, useRepository } from '@dl/testing';
import { IntegrationsRepository } from './integrations.repository';

describe(IntegrationsRepository.name, () => {
  const t = useRepository((prisma) => new IntegrationsRepository(prisma));

  it('puts an integration whose endpoint token never changes, finds it by token, records events once, and deletes it', async () => {
    const org = t.acme.organization.id;
    const stripe = await t.repo.put(org, 'stripe', 'whsec_1', null);
    expect(stripe).toMatchObject({ organizationId: org, provider: 'stripe', token: expect.stringMatching(/^[0-9a-f]{64}$/), webhookSecret: 'whsec_1', shopDomain: null });
    const again = await t.repo.put(org, 'stripe', 'whsec_2', null);
    expect(again).toMatchObject({ token: stripe.token, webhookSecret: 'whsec_2', createdAt: stripe.createdAt });
    const shop = await t.repo.put(org, 'shopify', 'shpss_1', 'acme.myshopify.com');
    expect((await t.repo.list(org)).map((i) => [i.provider, i.shopDomain])).toEqual([['stripe', null], ['shopify', 'acme.myshopify.com']]);
    expect(await t.repo.findByToken('shopify', shop.token)).toEqual(shop);

    expect(await t.repo.applied(org, 'stripe', 'evt_1')).toBe(false);
    await t.repo.markApplied(org, 'stripe', 'evt_1');
    await t.repo.markApplied(org, 'stripe', 'evt_1');
    expect(await t.repo.applied(org, 'stripe', 'evt_1')).toBe(true);
    expect(await t.repo.applied(org, 'shopify', 'evt_1')).toBe(false);

    expect(await t.repo.delete(org, 'shopify')).toBe(true);
    expect(await t.repo.delete(org, 'shopify')).toBe(false);
    expect(await t.repo.findByToken('shopify', shop.token)).toBeNull();
  });

  it("another organization's integration answers as missing: not listed, not deleted, its events not seen; a token answers only for its provider", async () => {
    const mine = await t.repo.put(t.acme.organization.id, 'shopify', 'shpss_mine', 'mine.myshopify.com');
    await t.repo.markApplied(t.acme.organization.id, 'shopify', 'evt_mine');
    const foreign = t.other.organization.id;
    expect(await t.repo.list(foreign)).toEqual([]);
    expect(await t.repo.delete(foreign, 'shopify')).toBe(false);
    expect(await t.repo.applied(foreign, 'shopify', 'evt_mine')).toBe(false);
    expect(await t.repo.findByToken('stripe', mine.token)).toBeNull();
    expect(await t.repo.findByToken('shopify', 'not-hex')).toBeNull();
    expect(await t.repo.findByToken('shopify', mine.token)).toMatchObject({ organizationId: t.acme.organization.id, webhookSecret: 'shpss_mine' });
  });

  it('an organization id that is not a UUID is refused by the database (22P02); an unknown provider too (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.put('acme', 'stripe', 'whsec', null)))).toBe('22P02');
    expect(sqlState(await rejectionOf(t.repo.list('acme')))).toBe('22P02');
    expect(sqlState(await rejectionOf(t.repo.applied(t.acme.organization.id, 'paypal' as 'stripe', 'evt')))).toBe('22P02');
  });
});
