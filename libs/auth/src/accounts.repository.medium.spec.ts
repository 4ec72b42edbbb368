import { Tier } from '@dl/platform/db';
import { createTestEnv, rejectionOf, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { AccountsRepository } from './accounts.repository';

describe(AccountsRepository.name, () => {
  let env: TestEnv;
  let repo: AccountsRepository;
  let acme: SeededOrganization;

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new AccountsRepository(env.prisma);
    acme = await seedOrganization(env, { name: 'Acme' });
  });
  afterAll(() => env?.teardown());

  it('creates a user and an organization with its owner and default template in one transaction', async () => {
    const { user, org } = await repo.transaction(async (tx) => {
      const u = await repo.createUser(tx, { email: 'founder@example.test', name: 'Founder', passwordHash: 'scrypt$x' });
      const o = await repo.createOrganization(tx, { name: 'Founded', slug: 'founded', tier: Tier.PRO, ownerId: u.id });
      return { user: u, org: o };
    });
    expect(user).toEqual({ id: user.id, email: 'founder@example.test', name: 'Founder', createdAt: expect.any(Date) });
    expect(org.organization).toEqual({ id: org.organization.id, name: 'Founded', slug: 'founded', tier: 'PRO', createdAt: expect.any(Date) });
    expect(await env.prisma.template.findUniqueOrThrow({ where: { id: org.templateId } })).toMatchObject({ slug: 'default', name: 'Default', defaults: {} });
    expect(await repo.membershipsOfUser(user.id)).toEqual([{ organizationId: org.organization.id, role: 'OWNER' }]);
    expect(await repo.findUserByEmail('founder@example.test')).toMatchObject({ id: user.id, passwordHash: 'scrypt$x' });
    expect(await repo.slugTaken('founded')).toBe(true);
    expect(await repo.slugTaken('unfounded')).toBe(false);
  });

  it('finds an organization by id or slug, sets its tier, and compare-and-sets a password hash', async () => {
    const id = acme.organization.id;
    expect(await repo.findOrganizationByRef(id)).toMatchObject({ id, name: 'Acme' });
    expect(await repo.findOrganizationByRef(acme.organization.slug)).toMatchObject({ id });
    expect(await repo.setTier(id, Tier.BUSINESS)).toMatchObject({ id, tier: 'BUSINESS' });
    expect((await repo.findOrganization(id))?.tier).toBe('BUSINESS');

    const user = acme.owner.user.id;
    await repo.setPasswordHash(user, 'hash-1');
    expect(await repo.replacePasswordHash(user, 'stale', 'hash-2')).toBe(false);
    expect(await repo.replacePasswordHash(user, 'hash-1', 'hash-2')).toBe(true);
    expect((await repo.findUserByEmail(acme.owner.user.email))?.passwordHash).toBe('hash-2');
  });

  it('an organization that does not exist, or an unknown reference, answers as missing', async () => {
    expect(await repo.findOrganization('00000000-0000-4000-8000-000000000000')).toBeNull();
    expect(await repo.findOrganizationByRef('no-such-slug')).toBeNull();
    expect(await repo.findUserByEmail('nobody@example.test')).toBeNull();
    expect(await repo.membershipsOfUser('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('a taken email is a unique violation the repository recognises, and the transaction leaves nothing', async () => {
    const err = await rejectionOf(
      repo.transaction(async (tx) => {
        await tx.organization.create({ data: { name: 'Half', slug: 'half-written', tier: Tier.FREE } });
        await repo.createUser(tx, { email: acme.owner.user.email, name: 'Again', passwordHash: 'x' });
      }),
    );
    expect(repo.isUniqueViolation(err)).toBe(true);
    expect(await repo.slugTaken('half-written')).toBe(false);
  });
});
