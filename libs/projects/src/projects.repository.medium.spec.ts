import { sqlState } from '@dl/platform/db';
import { ClickFixtures, rejectionOf, repositoryEnv, SeededOrganization, TestEnv } from '@dl/testing';
import { ProjectsRepository } from './projects.repository';

describe(ProjectsRepository.name, () => {
  let env: TestEnv, repo: ProjectsRepository, acme: SeededOrganization, other: SeededOrganization;
  beforeAll(async () => ({ env, repo, acme, other } = await repositoryEnv((prisma) => new ProjectsRepository(prisma))));
  afterAll(() => env?.teardown());

  it('creates, finds, lists newest first, updates and deletes, unassigning the links', async () => {
    const org = acme.organization.id;
    const first = await repo.create(org, acme.owner.user.id, { name: 'Spring', description: null });
    const second = await repo.create(org, acme.owner.user.id, { name: 'Summer', description: 'Sales' });
    expect(second).toMatchObject({ organizationId: org, userId: acme.owner.user.id, name: 'Summer', description: 'Sales' });
    expect(await repo.find(org, first.id)).toEqual(first);
    expect((await repo.list(org)).map((p) => p.name)).toEqual(['Summer', 'Spring']);

    const renamed = await repo.update(org, first.id, { name: 'Spring 2027', description: 'Launch' });
    expect(renamed).toMatchObject({ id: first.id, name: 'Spring 2027', description: 'Launch' });
    expect(renamed!.updatedAt.getTime()).toBeGreaterThanOrEqual(first.updatedAt.getTime());

    const link = await new ClickFixtures(env.prisma).useOwner(org, acme.owner.user.id, acme.template.id).link(org, { projectId: first.id });
    expect(await repo.delete(org, first.id)).toEqual([link.shortCode]);
    expect(await repo.find(org, first.id)).toBeNull();
    expect((await env.prisma.link.findUniqueOrThrow({ where: { id: link.id } })).projectId).toBeNull();
  });

  it("another organization's project answers as missing and is left untouched", async () => {
    const mine = await repo.create(acme.organization.id, acme.owner.user.id, { name: 'Private', description: null });
    const foreign = other.organization.id;
    expect(await repo.find(foreign, mine.id)).toBeNull();
    expect(await repo.update(foreign, mine.id, { name: 'Taken over' })).toBeNull();
    expect(await repo.delete(foreign, mine.id)).toBeNull();
    expect(await repo.list(foreign)).toEqual([]);
    expect(await repo.find(acme.organization.id, mine.id)).toMatchObject({ name: 'Private' });
    // Not an id at all: missing, without a query error.
    expect(await repo.find(acme.organization.id, 'not-a-uuid')).toBeNull();
  });

  it('a project in an organization that does not exist is refused by the foreign key (23503)', async () => {
    const err = await rejectionOf(repo.create('00000000-0000-4000-8000-000000000000', acme.owner.user.id, { name: 'Orphan', description: null }));
    expect(sqlState(err)).toBe('23503');
  });
});
