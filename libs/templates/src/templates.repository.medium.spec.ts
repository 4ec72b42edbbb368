import { ClickFixtures, errorBodyOf, useRepository } from '@dl/testing';
import { TemplatesRepository } from './templates.repository';

describe(TemplatesRepository.name, () => {
  const s = useRepository((prisma) => new TemplatesRepository(prisma));

  it('creates, counts the links of each template, updates and deletes an unused one', async () => {
    const org = s.acme.organization.id;
    const created = await s.repo.create(org, { name: 'Spring', slug: 'spring', defaults: { tags: ['spring'] } });
    expect(created).toMatchObject({ organizationId: org, name: 'Spring', slug: 'spring', description: null, defaults: { tags: ['spring'] }, linkCount: 0 });

    const links = new ClickFixtures(s.env.prisma).useOwner(org, s.acme.owner.user.id, s.acme.template.id);
    await links.link(org);
    await links.link(org);
    const listed = await s.repo.list(org);
    expect(listed.map((t) => [t.slug, t.linkCount])).toEqual([['spring', 0], ['default', 2]]);
    expect((await s.repo.find(org, s.acme.template.id))?.linkCount).toBe(2);

    const updated = await s.repo.update(org, created.id, { description: 'April', defaults: { attributionWindowHours: 24 } });
    expect(updated).toMatchObject({ id: created.id, slug: 'spring', description: 'April', defaults: { attributionWindowHours: 24 } });
    expect(await s.repo.delete(org, created.id)).toBe(true);
    expect(await s.repo.find(org, created.id)).toBeNull();
  });

  it("another organization's template answers as missing and is left untouched", async () => {
    const mine = await s.repo.create(s.acme.organization.id, { name: 'Private', slug: 'private' });
    const foreign = s.other.organization.id;
    expect(await s.repo.find(foreign, mine.id)).toBeNull();
    expect(await s.repo.update(foreign, mine.id, { name: 'Taken over' })).toBeNull();
    expect(await s.repo.delete(foreign, mine.id)).toBe(false);
    expect((await s.repo.list(foreign)).map((t) => t.slug)).toEqual(['default']);
    expect(await s.repo.find(s.acme.organization.id, mine.id)).toMatchObject({ name: 'Private' });
    // The same slug in another organization is its own.
    expect(await s.repo.create(foreign, { name: 'Private', slug: 'private' })).toMatchObject({ organizationId: foreign, slug: 'private' });
  });

  it('a taken slug is 409 on create and update; a template links use is 409 on delete', async () => {
    const org = s.acme.organization.id;
    await s.repo.create(org, { name: 'Taken', slug: 'taken' });
    expect(await errorBodyOf(s.repo.create(org, { name: 'Again', slug: 'taken' }))).toEqual({
      error: 'Conflict',
      message: "Template slug 'taken' is already in use",
      statusCode: 409,
    });
    const free = await s.repo.create(org, { name: 'Free', slug: 'free' });
    expect(await errorBodyOf(s.repo.update(org, free.id, { slug: 'taken' }))).toEqual({ error: 'Conflict', message: "Template slug 'taken' is already in use", statusCode: 409 });
    expect(await errorBodyOf(s.repo.delete(org, s.acme.template.id))).toEqual({ error: 'Conflict', message: 'Template is in use by 2 links', statusCode: 409 });
    expect(await s.repo.find(org, s.acme.template.id)).toMatchObject({ slug: 'default', linkCount: 2 });
  });
});
