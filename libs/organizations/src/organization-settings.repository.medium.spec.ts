import { Role, sqlState } from '@dl/platform/db';
import { addMember, ClickFixtures, rejectionOf, useRepository } from '@dl/testing';
import { OrganizationSettingsRepository } from './organization-settings.repository';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe(OrganizationSettingsRepository.name, () => {
  const t = useRepository((prisma) => new OrganizationSettingsRepository(prisma));

  it('reads and renames the organization, requires 2FA, schedules deletion once and cancels it', async () => {
    const org = t.acme.organization.id;
    expect(await t.repo.find(org)).toEqual({ ...t.acme.organization, requireTwoFactor: false, deletionScheduledAt: null });
    expect(await t.repo.update(org, { name: 'Acme Renamed', slug: 'acme-renamed', requireTwoFactor: true })).toMatchObject({ id: org, name: 'Acme Renamed', slug: 'acme-renamed', requireTwoFactor: true });
    const first = new Date('2030-01-01T00:00:00Z');
    expect((await t.repo.scheduleDeletion(org, first))?.deletionScheduledAt).toEqual(first);
    // A second request keeps the first date.
    expect((await t.repo.scheduleDeletion(org, new Date('2031-01-01T00:00:00Z')))?.deletionScheduledAt).toEqual(first);
    expect((await t.repo.cancelDeletion(org))?.deletionScheduledAt).toBeNull();
  });

  it('walks the link cache keys of the organization only; names its Owners and the requester', async () => {
    const fx = new ClickFixtures(t.env.prisma).useOwner(t.acme.organization.id, t.acme.owner.user.id, t.acme.template.id).useOwner(t.other.organization.id, t.other.owner.user.id, t.other.template.id);
    const a = await fx.link(t.acme.organization.id);
    const b = await fx.link(t.acme.organization.id);
    await fx.link(t.other.organization.id);
    const keys: string[] = [];
    for await (const page of t.repo.linkKeys(t.acme.organization.id)) keys.push(...page);
    expect(keys.sort()).toEqual([a.shortCode, b.shortCode].sort());

    const member = await addMember(t.env, t.acme.organization.id, Role.MEMBER);
    expect(await t.repo.ownersAndRequester(t.acme.organization.id, member.user.id)).toEqual({ owners: [t.acme.owner.user.email], requestedBy: member.user.name });
    // A requester of another organization is not named.
    expect(await t.repo.ownersAndRequester(t.acme.organization.id, t.other.owner.user.id)).toEqual({ owners: [t.acme.owner.user.email], requestedBy: null });
  });

  it("a slug another organization has answers null and changes nothing; an unknown organization answers missing", async () => {
    const before = await t.repo.find(t.other.organization.id);
    expect(await t.repo.update(t.other.organization.id, { name: 'Taken over', slug: (await t.repo.find(t.acme.organization.id))!.slug })).toBeNull();
    expect(await t.repo.find(t.other.organization.id)).toEqual(before);
    expect(await t.repo.find(UNKNOWN)).toBeNull();
    expect(await t.repo.scheduleDeletion(UNKNOWN, new Date())).toBeNull();
    expect(await t.repo.cancelDeletion(UNKNOWN)).toBeNull();
  });

  it('updating an unknown organization is refused (P2025: no row to update); a malformed id by the database (22P02)', async () => {
    expect(((await rejectionOf(t.repo.update(UNKNOWN, { name: 'x' }))) as { code?: string }).code).toBe('P2025');
    expect(sqlState(await rejectionOf(t.repo.linkKeys('acme').next()))).toBe('22P02');
  });
});
