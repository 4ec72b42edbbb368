import { errorBodyOf, ownerPrincipal, seedOrganization, useServices } from '@dl/testing';
import { ProjectsModule } from './projects.module';
import { ProjectsService } from './projects.service';

describe(ProjectsService.name, () => {
  const t = useServices([ProjectsModule], {}, async (app, env) => ({ projects: app.get(ProjectsService), acme: await seedOrganization(env), other: await seedOrganization(env) }));
  const notFound = { error: 'Not Found', message: 'Project not found', statusCode: 404 };

  it('creates a project with a trimmed name, lists, renames and deletes it', async () => {
    const created = await t.projects.create(ownerPrincipal(t.acme), { name: '  Summer  ', description: 'Campaign' });
    expect(created).toMatchObject({ name: 'Summer', description: 'Campaign' });
    expect((await t.projects.list(t.acme.organization.id)).map((p) => p.name)).toEqual(['Summer']);
    expect(await t.projects.update(t.acme.organization.id, created.id, { name: 'Summer 2027' })).toMatchObject({ id: created.id, name: 'Summer 2027' });
    expect(await t.projects.delete(t.acme.organization.id, created.id)).toEqual({ success: true });
    expect(await errorBodyOf(t.projects.get(t.acme.organization.id, created.id))).toEqual(notFound);
  });

  it("another organization's project is missing: get, update and delete answer 404, list does not show it", async () => {
    const mine = await t.projects.create(ownerPrincipal(t.acme), { name: 'Private' });
    expect(await errorBodyOf(t.projects.get(t.other.organization.id, mine.id))).toEqual(notFound);
    expect(await errorBodyOf(t.projects.update(t.other.organization.id, mine.id, { name: 'Taken over' }))).toEqual(notFound);
    expect(await errorBodyOf(t.projects.delete(t.other.organization.id, mine.id))).toEqual(notFound);
    expect(await t.projects.list(t.other.organization.id)).toEqual([]);
    expect(await t.projects.get(t.acme.organization.id, mine.id)).toMatchObject({ name: 'Private' });
  });

  it('refuses an update with nothing in it (400)', async () => {
    const p = await t.projects.create(ownerPrincipal(t.acme), { name: 'Unchanged' });
    expect(await errorBodyOf(t.projects.update(t.acme.organization.id, p.id, {}))).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
    expect(await errorBodyOf(t.projects.update(t.acme.organization.id, p.id, undefined))).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
  });
});
