import { Tier } from '@dl/platform/db';
import { rejectionOf, useRepository } from '@dl/testing';
import { AccountsRepository } from './accounts.repository';

describe(AccountsRepository.name, () => {
  const t = useRepository((prisma) => new AccountsRepository(prisma), { acme: { name: 'Acme' } });

  it('creates a user and an organization with its owner and default template in one transaction', async () => {
    const { user, org } = await t.repo.transaction(async (tx) => {
      const u = await t.repo.createUser(tx, { email: 'founder@example.test', name: 'Founder', passwordHash: 'scrypt$x' });
      const o = await t.repo.createOrganization(tx, { name: 'Founded', slug: 'founded', tier: Tier.PRO, ownerId: u.id });
      return { user: u, org: o };
    });
    expect(user).toEqual({ id: user.id, email: 'founder@example.test', name: 'Founder', createdAt: expect.any(Date) });
    expect(org.organization).toEqual({ id: org.organization.id, name: 'Founded', slug: 'founded', tier: 'PRO', createdAt: expect.any(Date) });
    expect(await t.env.prisma.template.findUniqueOrThrow({ where: { id: org.templateId } })).toMatchObject({ slug: 'default', name: 'Default', defaults: {} });
    expect(await t.repo.membershipsOfUser(user.id)).toEqual([{ organizationId: org.organization.id, role: 'OWNER' }]);
    expect(await t.repo.findUserByEmail('founder@example.test')).toMatchObject({ id: user.id, passwordHash: 'scrypt$x' });
    expect(await t.repo.slugTaken('founded')).toBe(true);
    expect(await t.repo.slugTaken('unfounded')).toBe(false);
  });

  it('finds an organization by id or slug, sets its tier, and compare-and-sets a password hash', async () => {
    const id = t.acme.organization.id;
    expect(await t.repo.findOrganizationByRef(id)).toMatchObject({ id, name: 'Acme' });
    expect(await t.repo.findOrganizationByRef(t.acme.organization.slug)).toMatchObject({ id });
    expect(await t.repo.setTier(id, Tier.BUSINESS)).toMatchObject({ id, tier: 'BUSINESS' });
    expect((await t.repo.findOrganization(id))?.tier).toBe('BUSINESS');

    const user = t.acme.owner.user.id;
    await t.repo.setPasswordHash(user, 'hash-1');
    expect(await t.repo.replacePasswordHash(user, 'stale', 'hash-2')).toBe(false);
    expect(await t.repo.replacePasswordHash(user, 'hash-1', 'hash-2')).toBe(true);
    expect((await t.repo.findUserByEmail(t.acme.owner.user.email))?.passwordHash).toBe('hash-2');
  });

  it('an organization that does not exist, or an unknown reference, answers as missing', async () => {
    expect(await t.repo.findOrganization('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await t.repo.findOrganizationByRef('no-such-slug')).toBeNull();
    expect(await t.repo.findUserByEmail('nobody@example.test')).toBeNull();
    expect(await t.repo.membershipsOfUser('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('a taken email is a unique violation the repository recognises, and the transaction leaves nothing', async () => {
    const err = await rejectionOf(
      t.repo.transaction(async (tx) => {
        await tx.organization.create({ data: { name: 'Half', slug: 'half-written', tier: Tier.FREE } });
        await t.repo.createUser(tx, { email: t.acme.owner.user.email, name: 'Again', passwordHash: 'x' });
      }),
    );
    expect(t.repo.isUniqueViolation(err)).toBe(true);
    expect(await t.repo.slugTaken('half-written')).toBe(false);
  });
});
