import { Role, sqlState } from '@dl/platform/db';
import { addMember, rejectionOf, useRepository } from '@dl/testing';
import { ScimRepository } from './scim.repository';

const hash = (c: string) => c.repeat(64);

describe(ScimRepository.name, () => {
  const t = useRepository((prisma) => new ScimRepository(prisma));

  it('issues, lists, finds, touches and revokes tokens', async () => {
    const org = t.acme.organization.id;
    const first = await t.repo.createToken(org, hash('a'));
    const second = await t.repo.createToken(org, hash('b'));
    expect((await t.repo.listTokens(org)).map((k) => k.id)).toEqual([second.id, first.id]);
    expect(await t.repo.findToken(hash('a'))).toEqual({ id: first.id, organizationId: org, tokenHash: hash('a'), revokedAt: null });
    const at = new Date('2030-01-01T00:00:00Z');
    await t.repo.touchToken(org, first.id, at);
    expect((await t.repo.listTokens(org)).find((k) => k.id === first.id)?.lastUsedAt).toEqual(at);
    expect(await t.repo.revokeToken(org, first.id)).toBe(true);
    expect(await t.repo.revokeToken(org, first.id)).toBe(false);
    expect((await t.repo.listTokens(org)).map((k) => k.id)).toEqual([second.id]);
    expect((await t.repo.findToken(hash('a')))?.revokedAt).toEqual(expect.any(Date));
  });

  it('provisions a member: a new account, a role, a name; pages and filters members; removing one revokes their keys', async () => {
    const org = t.acme.organization.id;
    const user = await t.repo.transaction(async (tx) => {
      expect(await t.repo.findUserByEmail(tx, 'scim@example.test')).toBeNull();
      const created = await t.repo.createUser(tx, { email: 'scim@example.test', name: 'Sam', passwordHash: 'x' });
      await t.repo.addMember(tx, org, created.id, Role.VIEWER);
      return created;
    });
    expect(await t.repo.findMember(org, user.id)).toMatchObject({ userId: user.id, email: 'scim@example.test', name: 'Sam', role: 'VIEWER' });
    await t.repo.transaction(async (tx) => {
      await t.repo.setRole(tx, org, user.id, Role.ADMIN);
      await t.repo.setName(tx, org, user.id, 'Samantha');
    });
    expect(await t.repo.findMember(org, user.id)).toMatchObject({ role: 'ADMIN', name: 'Samantha' });
    expect((await t.repo.listByRole(org, Role.ADMIN)).map((m) => m.userId)).toEqual([user.id]);
    expect(await t.repo.listMembers(org, { offset: 0, limit: 1 })).toMatchObject({ total: 2, rows: [{ userId: t.acme.owner.user.id }] });
    expect(await t.repo.listMembers(org, { offset: 1, limit: 10 })).toMatchObject({ total: 2, rows: [{ userId: user.id }] });
    expect(await t.repo.listMembers(org, { email: 'SCIM@Example.TEST', offset: 0, limit: 0 })).toEqual({ total: 1, rows: [] });
    expect(await t.repo.transaction((tx) => t.repo.countOwners(tx, org))).toBe(1);

    const member = await addMember(t.env, org, Role.MEMBER);
    const removed = await t.repo.transaction(async (tx) => {
      await t.repo.lockOrganization(tx, org);
      return t.repo.removeMember(tx, org, member.user.id);
    });
    expect(removed).toHaveLength(1);
    expect(await t.env.prisma.apiKey.findUnique({ where: { id: member.apiKeyId }, select: { revokedAt: true } })).toEqual({ revokedAt: expect.any(Date) });
    expect(await t.repo.findMember(org, member.user.id)).toBeNull();
  });

  it("another organization's tokens and members answer as missing and are left untouched", async () => {
    const mine = await t.repo.createToken(t.acme.organization.id, hash('c'));
    const foreign = t.other.organization.id;
    expect(await t.repo.revokeToken(foreign, mine.id)).toBe(false);
    await t.repo.touchToken(foreign, mine.id, new Date());
    expect(await t.repo.listTokens(foreign)).toEqual([]);
    expect(await t.repo.findToken(hash('c'))).toMatchObject({ organizationId: t.acme.organization.id, revokedAt: null });
    expect((await t.repo.listTokens(t.acme.organization.id)).find((k) => k.id === mine.id)?.lastUsedAt).toBeNull();

    const owner = t.acme.owner.user;
    expect(await t.repo.findMember(foreign, owner.id)).toBeNull();
    expect(await t.repo.listMembers(foreign, { email: owner.email, offset: 0, limit: 10 })).toEqual({ total: 0, rows: [] });
    await t.repo.transaction((tx) => t.repo.setName(tx, foreign, owner.id, 'Renamed by another organization'));
    expect(await t.repo.findMember(t.acme.organization.id, owner.id)).toMatchObject({ name: owner.name });
  });

  it('a second membership of one account is refused by the primary key (23505); a token hash issued twice too', async () => {
    const owner = t.acme.owner.user.id;
    expect(sqlState(await rejectionOf(t.repo.transaction((tx) => t.repo.addMember(tx, t.acme.organization.id, owner, Role.MEMBER))))).toBe('23505');
    await t.repo.createToken(t.acme.organization.id, hash('d'));
    expect(sqlState(await rejectionOf(t.repo.createToken(t.other.organization.id, hash('d'))))).toBe('23505');
  });
});
