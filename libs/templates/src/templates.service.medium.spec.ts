import { errorBodyOf, seedOrganization, useServices } from '@dl/testing';
import { TemplatesModule } from './templates.module';
import { TemplatesService } from './templates.service';

describe(TemplatesService.name, () => {
  const s = useServices([TemplatesModule], {}, async (app, env) => ({ templates: app.get(TemplatesService), acme: await seedOrganization(env), other: await seedOrganization(env) }));

  it('creates a template with a slug from its name and stored defaults, lists it beside default, updates and deletes it', async () => {
    const created = await s.templates.create(s.acme.organization.id, { name: '  Spring Sale  ', defaults: { attributionWindowHours: 24, tags: ['spring'] } });
    expect(created).toMatchObject({ name: 'Spring Sale', slug: 'spring-sale', description: null, linkCount: 0 });
    expect(created.defaults).toMatchObject({ attributionWindowHours: 24, tags: ['spring'] });
    expect((await s.templates.list(s.acme.organization.id)).map((t) => t.slug).sort()).toEqual(['default', 'spring-sale']);
    expect(await s.templates.update(s.acme.organization.id, created.id, { description: 'April' })).toMatchObject({ slug: 'spring-sale', description: 'April' });
    expect(await s.templates.delete(s.acme.organization.id, created.id)).toEqual({ success: true });
    expect(await errorBodyOf(s.templates.get(s.acme.organization.id, created.id))).toEqual({ error: 'Not Found', message: 'Template not found', statusCode: 404 });
  });

  it("another organization's template is missing: get, update and delete answer 404, list does not show it", async () => {
    const mine = await s.templates.create(s.acme.organization.id, { name: 'Private' });
    const notFound = { error: 'Not Found', message: 'Template not found', statusCode: 404 };
    expect(await errorBodyOf(s.templates.get(s.other.organization.id, mine.id))).toEqual(notFound);
    expect(await errorBodyOf(s.templates.update(s.other.organization.id, mine.id, { name: 'Taken over' }))).toEqual(notFound);
    expect(await errorBodyOf(s.templates.delete(s.other.organization.id, mine.id))).toEqual(notFound);
    expect((await s.templates.list(s.other.organization.id)).map((t) => t.slug)).toEqual(['default']);
    expect(await s.templates.get(s.acme.organization.id, mine.id)).toMatchObject({ name: 'Private' });
  });

  it('refuses a slug already in use in the organization (409) and an update with nothing in it (400), but the same slug in another organization is fine', async () => {
    await s.templates.create(s.acme.organization.id, { name: 'Launch' });
    expect(await errorBodyOf(s.templates.create(s.acme.organization.id, { name: 'Launch again', slug: 'launch' }))).toEqual({
      error: 'Conflict',
      message: "Template slug 'launch' is already in use",
      statusCode: 409,
    });
    expect(await s.templates.create(s.other.organization.id, { name: 'Launch' })).toMatchObject({ slug: 'launch' });
    const t = await s.templates.create(s.acme.organization.id, { name: 'Empty update' });
    expect(await errorBodyOf(s.templates.update(s.acme.organization.id, t.id, {}))).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
  });
});
