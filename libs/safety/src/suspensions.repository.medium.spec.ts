import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, useRepository } from '@dl/testing';
import { SuspensionsRepository } from './suspensions.repository';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe(SuspensionsRepository.name, () => {
  const t = useRepository((prisma) => new SuspensionsRepository(prisma));

  it('suspends with a reason, answers the organization, and lifts the suspension', async () => {
    const org = t.acme.organization;
    const at = new Date('2030-01-02T03:04:05.678Z');
    expect(await t.repo.isSuspended(org.id)).toBe(false);
    expect(await t.repo.setSuspension(org.id, at, 'phishing')).toEqual({ id: org.id, name: org.name, slug: org.slug, suspendedAt: at, suspensionReason: 'phishing' });
    expect(await t.repo.isSuspended(org.id)).toBe(true);
    expect(await t.repo.setSuspension(org.id, null, null)).toMatchObject({ suspendedAt: null, suspensionReason: null });
    expect(await t.repo.isSuspended(org.id)).toBe(false);
  });

  it("lists the organization's link addresses only (service host as the code, branded as host/code)", async () => {
    const fx = new ClickFixtures(t.env.prisma).useOwner(t.acme.organization.id, t.acme.owner.user.id, t.acme.template.id).useOwner(t.other.organization.id, t.other.owner.user.id, t.other.template.id);
    const plain = await fx.link(t.acme.organization.id);
    const branded = await fx.link(t.acme.organization.id);
    await t.env.prisma.link.update({ where: { id: branded.id }, data: { domainName: 'go.acme.test' } });
    await fx.link(t.other.organization.id);
    expect((await t.repo.linkAddresses(t.acme.organization.id)).sort()).toEqual([plain.shortCode, `go.acme.test/${branded.shortCode}`].sort());
  });

  it("suspending one organization leaves another as it was; an unknown one answers null and is not suspended", async () => {
    await t.repo.setSuspension(t.acme.organization.id, new Date(), 'spam');
    expect(await t.repo.isSuspended(t.other.organization.id)).toBe(false);
    expect(await t.repo.linkAddresses(t.other.organization.id)).toHaveLength(1);
    expect(await t.repo.setSuspension(UNKNOWN, new Date(), 'spam')).toBeNull();
    expect(await t.repo.isSuspended(UNKNOWN)).toBe(false);
    await t.repo.setSuspension(t.acme.organization.id, null, null);
  });

  it('an organization id that is not a UUID is refused by the database (22P02)', async () => {
    expect(sqlState(await rejectionOf(t.repo.isSuspended('acme')))).toBe('22P02');
  });
});
