import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, useRepository } from '@dl/testing';
import { ProjectsRepository } from './projects.repository';

describe(ProjectsRepository.name, () => {
  const t = useRepository((prisma) => new ProjectsRepository(prisma));

  it('creates, finds, lists newest first, updates and deletes, unassigning the links', async () => {
    const org = t.acme.organization.id;
    const first = await t.repo.create(org, t.acme.owner.user.id, { name: 'Spring', description: null });
    const second = await t.repo.create(org, t.acme.owner.user.id, { name: 'Summer', description: 'Sales' });
    expect(second).toMatchObject({ organizationId: org, userId: t.acme.owner.user.id, name: 'Summer', description: 'Sales' });
    expect(await t.repo.find(org, first.id)).toEqual(first);
    expect((await t.repo.list(org)).map((p) => p.name)).toEqual(['Summer', 'Spring']);

    const renamed = await t.repo.update(org, first.id, { name: 'Spring 2027', description: 'Launch' });
    expect(renamed).toMatchObject({ id: first.id, name: 'Spring 2027', description: 'Launch' });
    expect(renamed!.updatedAt.getTime()).toBeGreaterThanOrEqual(first.updatedAt.getTime());

    const link = await new ClickFixtures(t.env.prisma).useOwner(org, t.acme.owner.user.id, t.acme.template.id).link(org, { projectId: first.id });
    expect(await t.repo.delete(org, first.id)).toEqual([link.shortCode]);
    expect(await t.repo.find(org, first.id)).toBeNull();
    expect((await t.env.prisma.link.findUniqueOrThrow({ where: { id: link.id } })).projectId).toBeNull();
  });

  it("another organization's project answers as missing and is left untouched", async () => {
    const mine = await t.repo.create(t.acme.organization.id, t.acme.owner.user.id, { name: 'Private', description: null });
    const foreign = t.other.organization.id;
    expect(await t.repo.find(foreign, mine.id)).toBeNull();
    expect(await t.repo.update(foreign, mine.id, { name: 'Taken over' })).toBeNull();
    expect(await t.repo.delete(foreign, mine.id)).toBeNull();
    expect(await t.repo.list(foreign)).toEqual([]);
    expect(await t.repo.find(t.acme.organization.id, mine.id)).toMatchObject({ name: 'Private' });
    // Not an id at all: missing, without a query error.
    expect(await t.repo.find(t.acme.organization.id, 'not-a-uuid')).toBeNull();
  });

  it('a project in an organization that does not exist is refused by the foreign key (23503)', async () => {
    const err = await rejectionOf(t.repo.create('00000000-0000-4000-8000-000000000000', t.acme.owner.user.id, { name: 'Orphan', description: null }));
    expect(sqlState(err)).toBe('23503');
  });
});
