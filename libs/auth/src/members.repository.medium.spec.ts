import { Role, sqlState } from '@dl/platform/db';
import { addMember, rejectionOf, repositoryEnv, SeededOrganization, TestEnv } from '@dl/testing';
import { MembersRepository } from './members.repository';

describe(MembersRepository.name, () => {
  let env: TestEnv, repo: MembersRepository, acme: SeededOrganization, other: SeededOrganization;
  beforeAll(async () => ({ env, repo, acme, other } = await repositoryEnv((prisma) => new MembersRepository(prisma))));
  afterAll(() => env?.teardown());

  it('adds a member, lists oldest first, changes the role and removes them with their keys', async () => {
    const org = acme.organization.id;
    const joiner = other.owner.user;
    const added = await repo.transaction((tx) => repo.add(tx, org, joiner.id, Role.MEMBER));
    expect(added).toEqual({ userId: joiner.id, email: joiner.email, name: joiner.name, role: 'MEMBER', createdAt: expect.any(Date) });
    expect((await repo.list(org)).map((m) => [m.email, m.role])).toEqual([[acme.owner.user.email, 'OWNER'], [joiner.email, 'MEMBER']]);
    expect(await repo.findByEmail(org, joiner.email)).toMatchObject({ userId: joiner.id });
    expect(await repo.transaction((tx) => repo.countOwners(tx, org))).toBe(1);
    expect(await repo.transaction((tx) => repo.setRole(tx, org, joiner.id, Role.ADMIN))).toMatchObject({ role: 'ADMIN' });

    const key = await env.prisma.apiKey.create({ data: { organizationId: org, userId: joiner.id, name: 'k', keyHash: 'f'.repeat(64), keyPrefix: 'dl_ffffffff' } });
    expect(await repo.transaction((tx) => repo.remove(tx, org, joiner.id))).toEqual([key.keyHash]);
    expect(await repo.find(org, joiner.id)).toBeNull();
    expect((await env.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeInstanceOf(Date);
    // Their own organization keeps them.
    expect(await repo.find(other.organization.id, joiner.id)).toMatchObject({ role: 'OWNER' });
  });

  it("a member of another organization answers as missing", async () => {
    const viewer = await addMember(env, acme.organization.id, Role.VIEWER);
    const foreign = other.organization.id;
    expect(await repo.find(foreign, viewer.user.id)).toBeNull();
    expect(await repo.findByEmail(foreign, viewer.user.email)).toBeNull();
    expect((await repo.list(foreign)).map((m) => m.email)).toEqual([other.owner.user.email]);
    expect(await repo.find(acme.organization.id, viewer.user.id)).toMatchObject({ role: 'VIEWER' });
  });

  it('adding a member twice is refused by the membership key (23505)', async () => {
    const err = await rejectionOf(repo.transaction((tx) => repo.add(tx, acme.organization.id, acme.owner.user.id, Role.MEMBER)));
    expect(sqlState(err)).toBe('23505');
    expect(await repo.find(acme.organization.id, acme.owner.user.id)).toMatchObject({ role: 'OWNER' });
  });
});
