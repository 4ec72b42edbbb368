import { INestApplicationContext } from '@nestjs/common';
import { Tier } from '@dl/platform/db';
import { closeAll, errorBodyOf, ownerPrincipal, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { LinksModule } from './links.module';
import { LinksService } from './links.service';

describe(LinksService.name, () => {
  let env: TestEnv, app: INestApplicationContext, links: LinksService, acme: SeededOrganization, other: SeededOrganization;
  const notFound = { error: 'Not Found', message: 'Link not found', statusCode: 404 };

  beforeAll(async () => {
    // FREE may hold 3 links here, so the plan limit is reached in a few creates.
    ({ env, app } = await serviceEnv([LinksModule], { PLAN_LIMITS: JSON.stringify({ FREE: { links: 3 } }) }));
    links = app.get(LinksService);
    [acme, other] = [await seedOrganization(env), await seedOrganization(env)];
  });
  afterAll(() => closeAll(app, env));

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

  describe('rules of a create (the api e2e keeps one of each over HTTP)', () => {
    let pro: SeededOrganization;
    const create = (body: Record<string, unknown>, org = pro) => links.create(ownerPrincipal(org), { templateId: org.template.id, originalUrl: 'https://example.com', ...body } as never);
    const count = () => env.prisma.link.count({ where: { organizationId: pro.organization.id } });

    beforeAll(async () => {
      pro = await seedOrganization(env, { tier: Tier.PRO });
    });

    it('no originalUrl from the request or the template → 400 Invalid URL format, nothing written', async () => {
      const before = await count();
      expect(await errorBodyOf(create({ originalUrl: undefined }))).toEqual({ error: 'Bad Request', message: 'Invalid URL format', statusCode: 400, validation: { originalUrl: 'Must be a valid URL' } });
      expect(await count()).toBe(before);
    });

    it('trims tags and drops case-insensitive duplicates, keeping the first spelling', async () => {
      expect((await create({ tags: ['  Launch ', 'launch', 'Q4'] })).tags).toEqual(['Launch', 'Q4']);
    });

    it('template defaults fill what the request leaves out', async () => {
      const variants = [{ url: 'https://a.example/', weight: 30 }, { url: 'https://b.example/', weight: 70 }];
      const template = await env.prisma.template.create({
        data: { organizationId: pro.organization.id, name: 'Controls', slug: 'controls', defaults: { maxClicks: 10, expiredUrl: 'https://example.com/gone', publicStats: true, tags: ['t'], variants } },
      });
      const link = await links.create(ownerPrincipal(pro), { templateId: template.id, originalUrl: 'https://example.com/t' } as never);
      expect(link).toMatchObject({ max_clicks: 10, expired_url: 'https://example.com/gone', public_stats: true, tags: ['t'], variants, has_password: false });
    });

    it('cloak: true needs a branded domain: on create (its own or a template default) and on update (decisions §22)', async () => {
      const refused = { error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { cloak: 'Cloaking needs a branded domain' } };
      const org = await seedOrganization(env, { tier: Tier.PRO });
      const cloaked = await env.prisma.template.create({ data: { organizationId: org.organization.id, name: 'Cloaked', slug: 'cloaked', defaults: { cloak: true } } });
      expect(await errorBodyOf(create({ cloak: true }, org))).toEqual(refused);
      expect(await errorBodyOf(create({ templateId: cloaked.id }, org))).toEqual(refused);
      const plain = await create({}, org);
      expect(await errorBodyOf(links.update(ownerPrincipal(org), plain.id, { cloak: true } as never))).toEqual(refused);
      await env.prisma.domain.create({ data: { organizationId: org.organization.id, domain: 'go.cloak.test', verificationToken: 'c'.repeat(32), status: 'verified', isDefault: true } });
      const branded = await create({ cloak: true }, org);
      expect(branded).toMatchObject({ cloak: true, domain: 'go.cloak.test' });
      expect(await create({ templateId: cloaked.id }, org)).toMatchObject({ cloak: true, domain: 'go.cloak.test' });
      expect(await errorBodyOf(links.update(ownerPrincipal(org), branded.id, { domain: new URL(env.config.SHORT_LINK_BASE_URL).hostname } as never))).toEqual(refused);
      expect(await links.update(ownerPrincipal(org), branded.id, { cloak: false, domain: new URL(env.config.SHORT_LINK_BASE_URL).hostname } as never)).toMatchObject({ cloak: false, shortUrl: expect.not.stringContaining('go.cloak.test') });
      expect(await links.update(ownerPrincipal(org), plain.id, { cloak: null } as never)).toMatchObject({ cloak: false });
    });

    it('an unknown template, or a project of another organization → 404 like missing', async () => {
      expect(await errorBodyOf(create({ templateId: '00000000-0000-4000-8000-000000000000' }))).toEqual({ error: 'Not Found', message: 'Template not found', statusCode: 404 });
      const theirs = await env.prisma.project.create({ data: { organizationId: other.organization.id, userId: other.owner.user.id, name: 'Theirs' } });
      expect(await errorBodyOf(create({ projectId: theirs.id }))).toEqual({ error: 'Not Found', message: 'Project not found', statusCode: 404 });
      expect(await errorBodyOf(links.update(ownerPrincipal(pro), (await create({})).id, { projectId: theirs.id } as never))).toEqual({ error: 'Not Found', message: 'Project not found', statusCode: 404 });
    });

    it('a code taken in any organization, or a reserved word, → 409; codes are case-sensitive', async () => {
      await create({ customCode: 'Taken01' });
      const taken = (code: string) => ({ error: 'Conflict', message: `Short code '${code}' is already in use`, statusCode: 409 });
      expect(await errorBodyOf(create({ customCode: 'Taken01' }))).toEqual(taken('Taken01'));
      const third = await seedOrganization(env, { tier: Tier.PRO });
      expect(await errorBodyOf(create({ customCode: 'Taken01' }, third))).toEqual(taken('Taken01'));
      expect((await create({ customCode: 'taken01' })).short_code).toBe('taken01');
      for (const code of ['health', 'Metrics', 'docs', 'migrations', 'auth']) expect(await errorBodyOf(create({ customCode: code }))).toEqual(taken(code));
    });

    it('50 parallel creates with one custom code: exactly one is created, 49 answer 409', async () => {
      const results = await Promise.allSettled(Array.from({ length: 50 }, () => create({ originalUrl: 'https://example.com/race', customCode: 'RaceCode1' })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused).toHaveLength(49);
      expect(new Set(await Promise.all(refused.map((r) => errorBodyOf(Promise.reject(r.reason)).then((b) => b.statusCode))))).toEqual(new Set([409]));
      expect(await env.prisma.link.count({ where: { shortCode: 'RaceCode1' } })).toBe(1);
    });
  });
});
