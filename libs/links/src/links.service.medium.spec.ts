import { INestApplicationContext } from '@nestjs/common';
import { createServiceContext, createTestEnv, errorBodyOf, ownerPrincipal, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { LinksModule } from './links.module';
import { LinksService } from './links.service';

describe(LinksService.name, () => {
  let env: TestEnv;
  let app: INestApplicationContext;
  let links: LinksService;
  let acme: SeededOrganization;
  let other: SeededOrganization;
  const notFound = { error: 'Not Found', message: 'Link not found', statusCode: 404 };

  beforeAll(async () => {
    // FREE may hold 3 links here, so the plan limit is reached in a few creates.
    env = await createTestEnv({ PLAN_LIMITS: JSON.stringify({ FREE: { links: 3 } }) });
    app = await createServiceContext(env, [LinksModule]);
    links = app.get(LinksService);
    [acme, other] = [await seedOrganization(env), await seedOrganization(env)];
  });
  afterAll(async () => {
    await app?.close();
    await env?.teardown();
  });

  it('creates a link on the default template, reads it back, updates and deletes it', async () => {
    const created = await links.create(ownerPrincipal(acme), { templateId: acme.template.id, originalUrl: 'https://example.com/spring', customCode: 'Spring01' });
    expect(created).toMatchObject({ short_code: 'Spring01', original_url: 'https://example.com/spring', template_id: acme.template.id, is_active: true });
    const read = await links.get(acme.organization.id, created.id);
    expect(read).toMatchObject({ id: created.id, shortCode: 'Spring01', originalUrl: 'https://example.com/spring', clickCount: 0 });
    expect(await links.update(ownerPrincipal(acme), created.id, { title: 'Spring sale' })).toMatchObject({ id: created.id, title: 'Spring sale' });
    expect(await links.delete(acme.organization.id, created.id)).toEqual({ success: true });
    expect(await errorBodyOf(links.get(acme.organization.id, created.id))).toEqual(notFound);
  });

  it("another organization's link is missing (404), and its template cannot be used to create one", async () => {
    const mine = await links.create(ownerPrincipal(acme), { templateId: acme.template.id, originalUrl: 'https://example.com/private' });
    expect(await errorBodyOf(links.get(other.organization.id, mine.id))).toEqual(notFound);
    expect(await errorBodyOf(links.update(ownerPrincipal(other), mine.id, { title: 'Taken over' }))).toEqual(notFound);
    expect(await errorBodyOf(links.delete(other.organization.id, mine.id))).toEqual(notFound);
    expect(await errorBodyOf(links.create(ownerPrincipal(other), { templateId: acme.template.id, originalUrl: 'https://example.com/x' }))).toEqual({
      error: 'Not Found',
      message: 'Template not found',
      statusCode: 404,
    });
    expect(JSON.parse(await links.listJson(other.organization.id))).toEqual([]);
    expect(await links.get(acme.organization.id, mine.id)).toMatchObject({ originalUrl: 'https://example.com/private' });
  });

  it("refuses a create past the plan's link limit with 403 and the exact message, writing nothing", async () => {
    const org = await seedOrganization(env);
    for (let i = 0; i < 3; i++) await links.create(ownerPrincipal(org), { templateId: org.template.id, originalUrl: `https://example.com/${i}` });
    expect(await errorBodyOf(links.create(ownerPrincipal(org), { templateId: org.template.id, originalUrl: 'https://example.com/3' }))).toEqual({
      error: 'Forbidden',
      message: 'Link limit exceeded for your organization',
      statusCode: 403,
    });
    expect(await env.prisma.link.count({ where: { organizationId: org.organization.id } })).toBe(3);
  });
});
