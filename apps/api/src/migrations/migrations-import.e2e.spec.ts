import request from 'supertest';
import { useSuite } from '@dl/testing';
import { importUpload } from './test/import-upload';
import { bad, forbidden, linksWorld, notFound, queuedLinkEvents, waitFor } from '../links/test/links-setup';

const SPEC_CSV = [
  'shortCode,iosUrl,androidUrl,webUrl,campaign,channel,feature,tags,id',
  'ImpSpec1,https://apps.apple.com/app/id1,https://play.google.com/store/apps/details?id=a,https://example.com/one,spring,email,banner,"a,b",cmp-1',
  ',,,https://example.com/two,,,,,cmp-2',
  'ImpSpec3,,,not-a-url,,,,,cmp-3',
  'ImpSpec4,https://apps.apple.com/app/id4',
].join('\n');

const branchData = (o: Record<string, unknown>) => `"${JSON.stringify(o).replace(/"/g, '""')}"`;
const BRANCH_CSV = [
  'creation_timestamp,link_id,channel,feature,campaign,stage,tags,data,alias,domain,url',
  `2024-03-01 10:00:00,1234567890,facebook,sharing,launch,new,"[""x"",""y""]",${branchData({
    $ios_url: 'https://apps.apple.com/app/id9',
    $android_url: 'https://play.google.com/store/apps/details?id=z',
    $desktop_url: 'https://example.com/desktop',
    $fallback_url: 'https://example.com/fallback',
    '~campaign': 'launch',
    '~channel': 'facebook',
    '~feature': 'sharing',
    $og_title: 'Launch',
    $deeplink_path: 'promo/1',
  })},summer-sale,example.app.link,https://example.app.link/summer-sale`,
  `2024-03-02 10:00:00,1234567891,,,,,,${branchData({ $desktop_url: 'https://example.com/d2' })},,example.app.link,https://example.app.link/AbCdEf1`,
  `2024-03-03 10:00:00,1234567892,,,,,,{not json},,example.app.link,https://example.app.link/bad`,
].join('\n');

describe('migration import: POST /migrations/import', () => {
  const w = useSuite(async (own) => own(await linksWorld()));
  const upload = (csv: string | Buffer, fields: Record<string, string>, key = w.keyA) => importUpload(w.api.url, key, csv, fields);
  const fields = () => ({ platform: 'branch', templateId: w.a.template.id });
  const count = () => w.env.prisma.link.count({ where: { organizationId: w.a.organization.id } });

  it('imports the spec columns with UTM mapping, tags and migration_metadata; per-row errors carry row numbers', async () => {
    const res = await upload(SPEC_CSV, { ...fields(), platform: 'rebrandly' }).expect(200);
    expect(res.body).toEqual({
      imported: 2,
      skipped: 0,
      failed: 2,
      errors: [
        { row: 3, message: 'originalUrl: Must be a valid URL' },
        { row: 4, message: 'Row has 2 columns, expected 9' },
      ],
    });
    // The whole import is one audit entry with its counts, by the key that sent it (decisions §25).
    const audit = { organizationId: w.a.organization.id, action: 'links.imported' };
    await waitFor(async () => (await w.env.prisma.auditEntry.count({ where: audit })) === 1);
    expect(await w.env.prisma.auditEntry.findFirstOrThrow({ where: audit })).toMatchObject({
      actorType: 'apiKey',
      actorId: w.a.owner.apiKeyId,
      targetId: null,
      changes: { platform: 'rebrandly', conflictStrategy: 'skip', imported: 2, skipped: 0, failed: 2 },
    });
    const link = await w.env.prisma.link.findFirstOrThrow({ where: { shortCode: 'ImpSpec1', domainName: '' } });
    expect(link).toMatchObject({
      originalUrl: 'https://example.com/one',
      webFallbackUrl: 'https://example.com/one',
      iosUrl: 'https://apps.apple.com/app/id1',
      androidUrl: 'https://play.google.com/store/apps/details?id=a',
      utmParameters: { source: 'banner', medium: 'email', campaign: 'spring' },
      tags: ['a', 'b'],
      migrationMetadata: { competitorPlatform: 'rebrandly', competitorId: 'cmp-1' },
      organizationId: w.a.organization.id,
      templateId: w.a.template.id,
    });
    const generated = await w.env.prisma.link.findFirstOrThrow({ where: { originalUrl: 'https://example.com/two' } });
    expect(generated.shortCode).toMatch(/^[0-9A-Za-z]{7}$/);
    const read = await w.http().get(`/api/links/${link.id}`).expect(200);
    expect(read.body.migrationMetadata).toEqual({ competitorPlatform: 'rebrandly', competitorId: 'cmp-1' });
    const events = (await queuedLinkEvents(w.env, w.a.organization.id)).filter((e) => (e.data as { id: string }).id === link.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'link.created', data: { migration_metadata: { competitorPlatform: 'rebrandly', competitorId: 'cmp-1' } } });
  });

  it('imports a Branch link export: data JSON, alias → short code, url path when no alias', async () => {
    const res = await upload(BRANCH_CSV, fields()).expect(200);
    expect(res.body).toEqual({ imported: 2, skipped: 0, failed: 1, errors: [{ row: 3, message: 'Invalid JSON in the data column' }] });
    const sale = await w.env.prisma.link.findFirstOrThrow({ where: { shortCode: 'summer-sale', domainName: '' } });
    expect(sale).toMatchObject({
      originalUrl: 'https://example.com/fallback',
      webFallbackUrl: 'https://example.com/desktop',
      iosUrl: 'https://apps.apple.com/app/id9',
      androidUrl: 'https://play.google.com/store/apps/details?id=z',
      title: 'Launch',
      ogTitle: 'Launch',
      deepLinkPath: 'promo/1',
      tags: ['x', 'y'],
      utmParameters: { source: 'sharing', medium: 'facebook', campaign: 'launch', content: 'new' },
      migrationMetadata: { competitorPlatform: 'branch', competitorId: '1234567890' },
    });
    const second = await w.env.prisma.link.findFirstOrThrow({ where: { shortCode: 'AbCdEf1', domainName: '' } });
    expect(second.originalUrl).toBe('https://example.com/d2');
  });

  it('conflictStrategy skip (default), overwrite, rename', async () => {
    const csv = 'shortCode,webUrl\nConflict1,https://example.com/v1\n';
    expect((await upload(csv, fields()).expect(200)).body).toMatchObject({ imported: 1, skipped: 0, failed: 0 });
    const v2 = 'shortCode,webUrl\nConflict1,https://example.com/v2\n';
    expect((await upload(v2, fields()).expect(200)).body).toEqual({
      imported: 0,
      skipped: 1,
      failed: 0,
      errors: [{ row: 1, message: "Short code 'Conflict1' is already in use: skipped" }],
    });
    expect((await w.env.prisma.link.findFirstOrThrow({ where: { shortCode: 'Conflict1', domainName: '' } })).originalUrl).toBe('https://example.com/v1');
    expect((await upload(v2, { ...fields(), conflictStrategy: 'overwrite' }).expect(200)).body).toEqual({ imported: 1, skipped: 0, failed: 0, errors: [] });
    expect((await w.env.prisma.link.findFirstOrThrow({ where: { shortCode: 'Conflict1', domainName: '' } })).originalUrl).toBe('https://example.com/v2');
    const before = await count();
    expect((await upload(v2, { ...fields(), conflictStrategy: 'rename' }).expect(200)).body).toEqual({ imported: 1, skipped: 0, failed: 0, errors: [] });
    expect(await count()).toBe(before + 1);
  });

  it('a broken CSV (unclosed quote) → 400, nothing written', async () => {
    const before = await count();
    const res = await upload('shortCode,webUrl\nGood0001,https://example.com\n"Broken,https://example.com\n', fields()).expect(400);
    expect(res.body.error).toBe('Bad Request');
    expect(res.body.message).toMatch(/^Invalid CSV: /);
    expect(await count()).toBe(before);
  });

  it('a 20 MB file → 413 Payload too large, nothing written', async () => {
    const before = await count();
    const row = 'shortCode,webUrl\n' + 'x'.repeat(100) + ',https://example.com\n';
    const big = Buffer.alloc(20 * 1024 * 1024, row);
    const res = await upload(big, fields()).catch((err: { response?: request.Response }) => err.response);
    expect(res?.status).toBe(413);
    expect(res?.body).toEqual({ error: 'Payload Too Large', message: 'Payload too large', statusCode: 413 });
    expect(await count()).toBe(before);
  }, 120_000);

  // One refusal of the form over HTTP; every rule of the form and the rows:
  // libs/links/src/import/links-import.service.medium.spec.ts.
  it('a bad conflictStrategy → 400 Validation error', async () => {
    const res = await upload('shortCode,webUrl\nAbcd1234,https://example.com\n', { ...fields(), conflictStrategy: 'merge' }).expect(400);
    expect(res.body).toEqual(bad('Validation error', { conflictStrategy: 'Must be skip, overwrite or rename' }));
  });

  it('no file part or not multipart → 400', async () => {
    const noFile = await request(w.api.url).post('/migrations/import').set('Authorization', `Bearer ${w.keyA}`).field('platform', 'x').field('templateId', w.a.template.id).expect(400);
    expect(noFile.body).toEqual(bad('Validation error', { file: 'A CSV file is required' }));
    const json = await w.http().post('/migrations/import', { platform: 'x' }).expect(400);
    expect(json.body).toEqual(bad('Validation error', { file: 'Must be a multipart/form-data upload with a CSV file' }));
  });

  it('foreign template or project → 404; Viewer → 403', async () => {
    const pb = await w.http(w.keyB).post('/api/projects', { name: 'B' }).expect(201);
    const csv = 'shortCode,webUrl\nAbcd1234,https://example.com\n';
    expect((await upload(csv, { platform: 'x', templateId: w.b.template.id }).expect(404)).body).toEqual(notFound('Template not found'));
    expect((await upload(csv, { ...fields(), projectId: pb.body.id }).expect(404)).body).toEqual(notFound('Project not found'));
    expect((await upload(csv, fields(), w.viewerA).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    expect(await w.env.prisma.link.count({ where: { shortCode: 'Abcd1234' } })).toBe(0);
  });
});
