import { ClickFixtures, errorBodyOf, repositoryEnv, SeededOrganization, TestEnv } from '@dl/testing';
import { TemplatesRepository } from './templates.repository';

describe(TemplatesRepository.name, () => {
  let env: TestEnv, repo: TemplatesRepository, acme: SeededOrganization, other: SeededOrganization;
  beforeAll(async () => ({ env, repo, acme, other } = await repositoryEnv((prisma) => new TemplatesRepository(prisma))));
  afterAll(() => env?.teardown());

  it('creates, counts the links of each template, updates and deletes an unused one', async () => {
    const org = acme.organization.id;
    const created = await repo.create(org, { name: 'Spring', slug: 'spring', defaults: { tags: ['spring'] } });
    expect(created).toMatchObject({ organizationId: org, name: 'Spring', slug: 'spring', description: null, defaults: { tags: ['spring'] }, linkCount: 0 });

    const links = new ClickFixtures(env.prisma).useOwner(org, acme.owner.user.id, acme.template.id);
    await links.link(org);
    await links.link(org);
    const listed = await repo.list(org);
    expect(listed.map((t) => [t.slug, t.linkCount])).toEqual([['spring', 0], ['default', 2]]);
    expect((await repo.find(org, acme.template.id))?.linkCount).toBe(2);

    const updated = await repo.update(org, created.id, { description: 'April', defaults: { attributionWindowHours: 24 } });
    expect(updated).toMatchObject({ id: created.id, slug: 'spring', description: 'April', defaults: { attributionWindowHours: 24 } });
    expect(await repo.delete(org, created.id)).toBe(true);
    expect(await repo.find(org, created.id)).toBeNull();
  });

  it("another organization's template answers as missing and is left untouched", async () => {
    const mine = await repo.create(acme.organization.id, { name: 'Private', slug: 'private' });
    const foreign = other.organization.id;
    expect(await repo.find(foreign, mine.id)).toBeNull();
    expect(await repo.update(foreign, mine.id, { name: 'Taken over' })).toBeNull();
    expect(await repo.delete(foreign, mine.id)).toBe(false);
    expect((await repo.list(foreign)).map((t) => t.slug)).toEqual(['default']);
    expect(await repo.find(acme.organization.id, mine.id)).toMatchObject({ name: 'Private' });
    // The same slug in another organization is its own.
    expect(await repo.create(foreign, { name: 'Private', slug: 'private' })).toMatchObject({ organizationId: foreign, slug: 'private' });
  });

  it('a taken slug is 409 on create and update; a template links use is 409 on delete', async () => {
    const org = acme.organization.id;
    await repo.create(org, { name: 'Taken', slug: 'taken' });
    expect(await errorBodyOf(repo.create(org, { name: 'Again', slug: 'taken' }))).toEqual({
      error: 'Conflict',
      message: "Template slug 'taken' is already in use",
      statusCode: 409,
    });
    const free = await repo.create(org, { name: 'Free', slug: 'free' });
    expect(await errorBodyOf(repo.update(org, free.id, { slug: 'taken' }))).toEqual({ error: 'Conflict', message: "Template slug 'taken' is already in use", statusCode: 409 });
    expect(await errorBodyOf(repo.delete(org, acme.template.id))).toEqual({ error: 'Conflict', message: 'Template is in use by 2 links', statusCode: 409 });
    expect(await repo.find(org, acme.template.id)).toMatchObject({ slug: 'default', linkCount: 2 });
  });
});
