import { INestApplicationContext } from '@nestjs/common';
import { closeAll, errorBodyOf, ownerPrincipal, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { ProjectsModule } from './projects.module';
import { ProjectsService } from './projects.service';

describe(ProjectsService.name, () => {
  let env: TestEnv, app: INestApplicationContext, projects: ProjectsService, acme: SeededOrganization, other: SeededOrganization;
  const notFound = { error: 'Not Found', message: 'Project not found', statusCode: 404 };

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([ProjectsModule]));
    projects = app.get(ProjectsService);
    [acme, other] = [await seedOrganization(env), await seedOrganization(env)];
  });
  afterAll(() => closeAll(app, env));

  it('creates a project with a trimmed name, lists, renames and deletes it', async () => {
    const created = await projects.create(ownerPrincipal(acme), { name: '  Summer  ', description: 'Campaign' });
    expect(created).toMatchObject({ name: 'Summer', description: 'Campaign' });
    expect((await projects.list(acme.organization.id)).map((p) => p.name)).toEqual(['Summer']);
    expect(await projects.update(acme.organization.id, created.id, { name: 'Summer 2027' })).toMatchObject({ id: created.id, name: 'Summer 2027' });
    expect(await projects.delete(acme.organization.id, created.id)).toEqual({ success: true });
    expect(await errorBodyOf(projects.get(acme.organization.id, created.id))).toEqual(notFound);
  });

  it("another organization's project is missing: get, update and delete answer 404, list does not show it", async () => {
    const mine = await projects.create(ownerPrincipal(acme), { name: 'Private' });
    expect(await errorBodyOf(projects.get(other.organization.id, mine.id))).toEqual(notFound);
    expect(await errorBodyOf(projects.update(other.organization.id, mine.id, { name: 'Taken over' }))).toEqual(notFound);
    expect(await errorBodyOf(projects.delete(other.organization.id, mine.id))).toEqual(notFound);
    expect(await projects.list(other.organization.id)).toEqual([]);
    expect(await projects.get(acme.organization.id, mine.id)).toMatchObject({ name: 'Private' });
  });

  it('refuses an update with nothing in it (400)', async () => {
    const p = await projects.create(ownerPrincipal(acme), { name: 'Unchanged' });
    expect(await errorBodyOf(projects.update(acme.organization.id, p.id, {}))).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
    expect(await errorBodyOf(projects.update(acme.organization.id, p.id, undefined))).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
  });
});
