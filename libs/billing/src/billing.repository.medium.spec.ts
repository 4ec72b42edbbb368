import { Role, sqlState, Tier } from '@dl/platform/db';
import { addMember, rejectionOf, useRepository } from '@dl/testing';
import { BillingRepository } from './billing.repository';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe(BillingRepository.name, () => {
  const t = useRepository((prisma) => new BillingRepository(prisma));

  it("links a customer once, locks and updates the account, sets the tier, and names the organization's Owners", async () => {
    const org = t.acme.organization.id;
    await t.repo.linkCustomer(org, 'cus_acme');
    await t.repo.linkCustomer(org, 'cus_second');
    expect(await t.repo.find(org)).toEqual({
      organizationId: org,
      stripeCustomerId: 'cus_acme',
      stripeSubscriptionId: null,
      status: 'none',
      paidTier: null,
      interval: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      pastDueSince: null,
      graceEndedAt: null,
      lastEventAt: null,
    });
    expect(await t.repo.organizationOfCustomer('cus_acme')).toBe(org);

    const since = new Date('2030-01-01T00:00:00Z');
    const previous = await t.repo.transaction(async (tx) => {
      expect(await t.repo.lock(tx, org)).toMatchObject({ stripeCustomerId: 'cus_acme' });
      await t.repo.update(tx, org, { status: 'past_due', paidTier: Tier.PRO, interval: 'month', pastDueSince: since });
      return t.repo.setTier(tx, org, Tier.PRO);
    });
    expect(previous).toBe(t.acme.organization.tier);
    expect(await t.repo.find(org)).toMatchObject({ status: 'past_due', paidTier: 'PRO', interval: 'month', pastDueSince: since });
    expect(await t.repo.graceEnded(new Date('2030-01-08T00:00:00Z'))).toEqual([org]);
    expect(await t.repo.graceEnded(new Date('2029-12-31T00:00:00Z'))).toEqual([]);

    const admin = await addMember(t.env, org, Role.ADMIN);
    const contact = await t.repo.contact(org);
    const owner = t.acme.owner.user;
    expect(contact).toEqual({ name: t.acme.organization.name, tier: 'PRO', owners: [{ id: owner.id, email: owner.email, name: owner.name }] });
    expect(contact?.owners.map((o) => o.id)).not.toContain(admin.user.id);
  });

  it('claims a Stripe event once, records how it ended and the subscription it still has to cancel, until done', async () => {
    const event = { id: 'evt_once', type: 'customer.subscription.created', created: new Date() };
    expect(await t.repo.transaction((tx) => t.repo.claimEvent(tx, event, 'applied'))).toBe(true);
    expect(await t.repo.transaction((tx) => t.repo.claimEvent(tx, event, 'applied'))).toBe(false);
    await t.repo.transaction((tx) => t.repo.finishEvent(tx, 'evt_once', { outcome: 'stale', cancelSubscriptionId: 'sub_old' }));
    expect(await t.env.prisma.stripeEvent.findUnique({ where: { id: 'evt_once' }, select: { outcome: true } })).toEqual({ outcome: 'stale' });
    expect(await t.repo.transaction((tx) => t.repo.pendingCancel(tx, 'evt_once'))).toBe('sub_old');
    await t.repo.cancelDone('evt_once');
    expect(await t.repo.transaction((tx) => t.repo.pendingCancel(tx, 'evt_once'))).toBeNull();
    expect(await t.repo.transaction((tx) => t.repo.pendingCancel(tx, 'evt_unknown'))).toBeNull();
  });

  it("another organization's account answers as missing: no account, no lock, a customer that is not its own", async () => {
    const foreign = t.other.organization.id;
    expect(await t.repo.find(foreign)).toBeNull();
    expect(await t.repo.transaction((tx) => t.repo.lock(tx, foreign))).toBeNull();
    expect(await t.repo.organizationOfCustomer('cus_unknown')).toBeNull();
    // A webhook naming an unknown organization, or a customer another organization has, creates nothing.
    expect(await t.repo.transaction((tx) => t.repo.createAccount(tx, UNKNOWN, 'cus_ghost'))).toBe(false);
    expect(await t.repo.transaction((tx) => t.repo.createAccount(tx, foreign, 'cus_acme'))).toBe(false);
    expect(await t.repo.find(foreign)).toBeNull();
    expect(await t.repo.transaction((tx) => t.repo.createAccount(tx, foreign, 'cus_other'))).toBe(true);
    expect(await t.repo.organizationOfCustomer('cus_other')).toBe(foreign);
    expect(await t.repo.contact(UNKNOWN)).toBeNull();
    expect(await t.repo.transaction((tx) => t.repo.setTier(tx, UNKNOWN, Tier.BUSINESS))).toBe(Tier.BUSINESS);
  });

  it('linking a customer another organization has is refused by its unique index (23505)', async () => {
    await t.env.prisma.billingAccount.deleteMany({ where: { organizationId: t.other.organization.id } });
    expect(sqlState(await rejectionOf(t.repo.linkCustomer(t.other.organization.id, 'cus_acme')))).toBe('23505');
  });
});
