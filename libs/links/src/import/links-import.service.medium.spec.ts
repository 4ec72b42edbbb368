import { Readable } from 'node:stream';
import { INestApplicationContext } from '@nestjs/common';
import { Tier } from '@dl/platform/db';
import { closeAll, errorBodyOf, ownerPrincipal, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { LinksModule } from '../links.module';
import { readCsv } from './csv-reader';
import { LinksImportService } from './links-import.service';

// The importer's rules on Postgres (decisions §12, §14); the api's e2e spec keeps the upload
// over HTTP (multipart, size, the answers) and one refusal of each kind.
describe(LinksImportService.name, () => {
  let env: TestEnv, app: INestApplicationContext, importer: LinksImportService, acme: SeededOrganization, other: SeededOrganization;
  const table = (csv: string) => readCsv(Readable.from([Buffer.from(csv)]));
  const run = async (csv: string, fields: Record<string, unknown> = {}) =>
    importer.importUpload(ownerPrincipal(acme), { platform: 'bitly', templateId: acme.template.id, ...fields }, await table(csv));

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([LinksModule]));
    importer = app.get(LinksImportService);
    [acme, other] = [await seedOrganization(env, { tier: Tier.PRO }), await seedOrganization(env, { tier: Tier.PRO })];
  });
  afterAll(() => closeAll(app, env));

  it.each([
    [{ platform: 'x' }, { templateId: 'Must be a valid UUID' }],
    [{ templateId: 'x', platform: 'x' }, { templateId: 'Must be a valid UUID' }],
    [{ templateId: 'T' }, { platform: 'Must be a non-empty string of at most 50 characters' }],
    [{ templateId: 'T', platform: 'x', conflictStrategy: 'merge' }, { conflictStrategy: 'Must be skip, overwrite or rename' }],
    [{ templateId: 'T', platform: 'x', projectId: 'p' }, { projectId: 'Must be a valid UUID' }],
    [{ templateId: 'T', platform: 'x', extra: '1' }, { extra: 'Unknown field' }],
  ])('form fields %j → 400 Validation error, nothing written', async (form, validation) => {
    const fields = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v === 'T' ? acme.template.id : v]));
    expect(await errorBodyOf(importer.importUpload(ownerPrincipal(acme), fields, await table('shortCode,webUrl\nForm0001,https://example.com\n')))).toEqual({
      error: 'Bad Request',
      message: 'Validation error',
      statusCode: 400,
      validation,
    });
    expect(await env.prisma.link.count({ where: { shortCode: 'Form0001' } })).toBe(0);
  });

  it('a cell with a NUL byte fails its row only; the other rows are imported', async () => {
    expect(await run('originalUrl,title\nhttps://example.com/nul-ok,Fine\nhttps://example.com/nul-bad,Bad\u0000Title\n')).toEqual({
      imported: 1,
      skipped: 0,
      failed: 1,
      errors: [{ row: 2, message: 'title: Must not contain NUL characters or unpaired surrogates' }],
    });
  });

  it("a template's cloak on the service host fails each row like a create (decisions §22); a branded domain takes it", async () => {
    const cloaked = await env.prisma.template.create({ data: { organizationId: acme.organization.id, name: 'Cloaked', slug: 'cloaked', defaults: { cloak: true } } });
    await env.prisma.domain.create({
      data: { organizationId: acme.organization.id, domain: 'go.cloak.test', heldName: 'go.cloak.test', status: 'verified', verificationToken: '0'.repeat(32), verifiedAt: new Date() },
    });
    expect(await run('originalUrl,cloak,domain\nhttps://example.com/c1,,\nhttps://example.com/c2,false,\nhttps://example.com/c3,,go.cloak.test\n', { templateId: cloaked.id })).toEqual({
      imported: 2,
      skipped: 0,
      failed: 1,
      errors: [{ row: 1, message: 'cloak: Cloaking needs a branded domain' }],
    });
    expect(await env.prisma.link.findFirst({ where: { originalUrl: 'https://example.com/c1' } })).toBeNull();
    expect(await env.prisma.link.findFirstOrThrow({ where: { originalUrl: 'https://example.com/c2' } })).toMatchObject({ cloak: false, domainName: '' });
    expect(await env.prisma.link.findFirstOrThrow({ where: { originalUrl: 'https://example.com/c3' } })).toMatchObject({ cloak: true, domainName: 'go.cloak.test' });
  });

  it("overwrite never touches another organization's link", async () => {
    await env.prisma.link.create({
      data: { organizationId: other.organization.id, userId: other.owner.user.id, templateId: other.template.id, shortCode: 'OwnedByB1', originalUrl: 'https://b.example.com/' },
    });
    expect(await run('shortCode,webUrl\nOwnedByB1,https://example.com/steal\n', { conflictStrategy: 'overwrite' })).toEqual({
      imported: 0,
      skipped: 0,
      failed: 1,
      errors: [{ row: 1, message: "Short code 'OwnedByB1' is already in use" }],
    });
    expect((await env.prisma.link.findFirstOrThrow({ where: { shortCode: 'OwnedByB1', domainName: '' } })).originalUrl).toBe('https://b.example.com/');
  });

  it('a file without the columns of any known export → 400, an empty file → 400', async () => {
    expect((await errorBodyOf(run('name,email\nx,y\n'))).message).toMatch(/^Invalid CSV columns: /);
    expect(await errorBodyOf(table(''))).toEqual({ error: 'Bad Request', message: 'Invalid CSV: the file is empty', statusCode: 400 });
  });
});
