import { Role, sqlState } from '@dl/platform/db';
import { addMember, rejectionOf, useRepository } from '@dl/testing';
import { MembersRepository } from './members.repository';

describe(MembersRepository.name, () => {
  const t = useRepository((prisma) => new MembersRepository(prisma));

  it('adds a member, lists oldest first, changes the role and removes them with their keys', async () => {
    const org = t.acme.organization.id;
    const joiner = t.other.owner.user;
    const added = await t.repo.transaction((tx) => t.repo.add(tx, org, joiner.id, Role.MEMBER));
    expect(added).toEqual({ userId: joiner.id, email: joiner.email, name: joiner.name, role: 'MEMBER', createdAt: expect.any(Date) });
    expect((await t.repo.list(org)).map((m) => [m.email, m.role])).toEqual([[t.acme.owner.user.email, 'OWNER'], [joiner.email, 'MEMBER']]);
    expect(await t.repo.findByEmail(org, joiner.email)).toMatchObject({ userId: joiner.id });
    expect(await t.repo.transaction((tx) => t.repo.countOwners(tx, org))).toBe(1);
    expect(await t.repo.transaction((tx) => t.repo.setRole(tx, org, joiner.id, Role.ADMIN))).toMatchObject({ role: 'ADMIN' });

    const key = await t.env.prisma.apiKey.create({ data: { organizationId: org, userId: joiner.id, name: 'k', keyHash: 'f'.repeat(64), keyPrefix: 'dl_ffffffff' } });
    expect(await t.repo.transaction((tx) => t.repo.remove(tx, org, joiner.id))).toEqual([key.keyHash]);
    expect(await t.repo.find(org, joiner.id)).toBeNull();
    expect((await t.env.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeInstanceOf(Date);
    // Their own organization keeps them.
    expect(await t.repo.find(t.other.organization.id, joiner.id)).toMatchObject({ role: 'OWNER' });
  });

  it("a member of another organization answers as missing", async () => {
    const viewer = await addMember(t.env, t.acme.organization.id, Role.VIEWER);
    const foreign = t.other.organization.id;
    expect(await t.repo.find(foreign, viewer.user.id)).toBeNull();
    expect(await t.repo.findByEmail(foreign, viewer.user.email)).toBeNull();
    expect((await t.repo.list(foreign)).map((m) => m.email)).toEqual([t.other.owner.user.email]);
    expect(await t.repo.find(t.acme.organization.id, viewer.user.id)).toMatchObject({ role: 'VIEWER' });
  });

  it('adding a member twice is refused by the membership key (23505)', async () => {
    const err = await rejectionOf(t.repo.transaction((tx) => t.repo.add(tx, t.acme.organization.id, t.acme.owner.user.id, Role.MEMBER)));
    expect(sqlState(err)).toBe('23505');
    expect(await t.repo.find(t.acme.organization.id, t.acme.owner.user.id)).toMatchObject({ role: 'OWNER' });
  });
});
