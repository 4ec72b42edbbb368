import { AUTO_FORMATS_MESSAGE } from '@dl/links';
import { Tier } from '@dl/platform/db';
import { IMPORTED_SAMPLES, importFixture as fixture, seedOrganization } from '@dl/testing';
import { importUpload } from './test/import-upload';
import { bad, LinksWorld, linksWorld } from '../links/test/links-setup';

describe('migration import of other platforms’ exports (platform: auto)', () => {
  let w: LinksWorld;
  const upload = (csv: string | Buffer, fields: Record<string, string>, key = w.keyA) => importUpload(w.api.url, key, csv, fields, 'export.csv');
  const auto = (extra: Record<string, string> = {}) => ({ platform: 'auto', templateId: w.a.template.id, ...extra });
  const linkOf = (code: string, domainName = '') => w.env.prisma.link.findFirstOrThrow({ where: { shortCode: code, domainName } });

  beforeAll(async () => {
    w = await linksWorld();
    await w.env.prisma.domain.create({
      data: { organizationId: w.a.organization.id, domain: 'go.moving.test', status: 'verified', verificationToken: '0'.repeat(32), verifiedAt: new Date() },
    });
  });
  afterAll(() => w?.close());

  it.each(Object.keys(IMPORTED_SAMPLES))('%s: codes, titles, tags, created dates and source click counts carried over', async (platform) => {
    const res = await upload(fixture(platform), auto()).expect(200);
    expect(res.body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    for (const e of IMPORTED_SAMPLES[platform]) {
      const link = await linkOf(e.code);
      expect({
        code: link.shortCode,
        url: link.originalUrl,
        title: link.title,
        tags: link.tags,
        createdAt: link.createdAt.toISOString(),
        metadata: link.migrationMetadata,
        organizationId: link.organizationId,
      }).toEqual({
        code: e.code,
        url: e.url,
        title: e.title,
        tags: e.tags,
        createdAt: e.createdAt,
        metadata: { competitorPlatform: platform, competitorId: e.id, ...(e.clicks === undefined ? {} : { clicks: e.clicks }) },
        organizationId: w.a.organization.id,
      });
    }
  });

  it('the API reads an imported link with its source created date and click count', async () => {
    const link = await linkOf('yl-wiki');
    const read = await w.http().get(`/api/links/${link.id}`).expect(200);
    expect(read.body.createdAt).toBe('2019-05-04T13:37:00.000Z');
    expect(read.body.migrationMetadata).toEqual({ competitorPlatform: 'yourls', competitorId: null, clicks: 1234 });
  });

  it('Firebase: the long link parameters become each platform’s destination and the social preview', async () => {
    expect(await linkOf('fdl-promo')).toMatchObject({
      androidUrl: 'https://play.google.com/store/apps/details?id=com.example.app',
      iosUrl: 'https://apps.apple.com/app/id1234567890',
      webFallbackUrl: 'https://example.com/fdl/desktop',
      ogTitle: 'Promo title',
      ogDescription: 'Promo description',
      ogImageUrl: 'https://example.com/fdl/promo.png',
      utmParameters: { source: 'newsletter', medium: 'email', campaign: 'promo' },
    });
    expect(await linkOf('fdl-invite')).toMatchObject({ androidUrl: 'https://example.com/fdl/android', iosUrl: 'https://example.com/fdl/ios', webFallbackUrl: null });
  });

  it('a byte-order mark and Windows line endings are read like any file', async () => {
    const csv = '\uFEFF' + fixture('bitly').replace(/bitly-spring/g, 'bom-spring').replace(/3BtlyA2/g, 'BomBtly2').replace(/\n/g, '\r\n');
    expect((await upload(csv, auto()).expect(200)).body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    expect(await linkOf('bom-spring')).toMatchObject({ title: 'Spring sale', migrationMetadata: { competitorPlatform: 'bitly', competitorId: 'bit.ly/3BtlyA1', clicks: 1520 } });
    expect((await linkOf('BomBtly2')).title).toBe('Blog post');
  });

  it('a code already taken is skipped with why; with conflictStrategy rename it is imported under a new code', async () => {
    const before = await w.env.prisma.link.count({ where: { organizationId: w.a.organization.id } });
    expect((await upload(fixture('dub'), auto()).expect(200)).body).toEqual({
      imported: 0,
      skipped: 2,
      failed: 0,
      errors: [
        { row: 1, message: "Short code 'dub-pricing' is already in use: skipped" },
        { row: 2, message: "Short code 'dub-careers' is already in use: skipped" },
      ],
    });
    expect((await upload(fixture('dub'), auto({ conflictStrategy: 'rename' })).expect(200)).body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    const renamed = await w.env.prisma.link.findMany({ where: { organizationId: w.a.organization.id, originalUrl: 'https://example.com/dub/pricing' } });
    expect(renamed).toHaveLength(2);
    const fresh = renamed.find((l) => l.shortCode !== 'dub-pricing')!;
    expect(fresh.shortCode).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(fresh.migrationMetadata).toEqual({ competitorPlatform: 'dub', competitorId: 'link_1J8ZkF2m', clicks: 2048 });
    expect(await w.env.prisma.link.count({ where: { organizationId: w.a.organization.id } })).toBe(before + 2);
  });

  it('domain: the codes are kept on the given verified domain; an unverified one → 400', async () => {
    expect((await upload(fixture('kutt'), auto({ domain: 'go.moving.test' })).expect(200)).body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    expect(await linkOf('kutt-gh', 'go.moving.test')).toMatchObject({ originalUrl: 'https://example.com/kutt/github', organizationId: w.a.organization.id });
    const res = await upload(fixture('kutt'), auto({ domain: 'nope.moving.test' })).expect(400);
    expect(res.body).toEqual(bad('Validation error', { domain: 'Must be a verified domain of your organization' }));
  });

  it('an unknown column set with platform auto → 400 Validation error naming the formats it knows, nothing written', async () => {
    const before = await w.env.prisma.link.count();
    const res = await upload('name,email,phone\nAda,ada@example.com,1\n', auto()).expect(400);
    expect(res.body).toEqual(bad('Validation error', { file: AUTO_FORMATS_MESSAGE }));
    expect(res.body.validation.file).toContain('Bitly, a Branch link export');
    expect(await w.env.prisma.link.count()).toBe(before);
  });

  it('a 20,000-row YOURLS export is imported whole (the same path as 100,000: streamed, inserted in batches)', async () => {
    const big = await seedOrganization(w.env, { tier: Tier.UNLIMITED, name: 'Big' });
    const rows = Array.from({ length: 20_000 }, (_, i) => `big${i},https://example.com/big/${i},Row ${i},2020-01-01 00:00:00,10.0.0.1,${i}`);
    const csv = ['keyword,url,title,timestamp,ip,clicks', ...rows].join('\n');
    const res = await upload(csv, { platform: 'auto', templateId: big.template.id }, big.owner.apiKey).expect(200);
    expect(res.body).toEqual({ imported: 20_000, skipped: 0, failed: 0, errors: [] });
    expect(await w.env.prisma.link.count({ where: { organizationId: big.organization.id } })).toBe(20_000);
    expect((await linkOf('big19999')).migrationMetadata).toEqual({ competitorPlatform: 'yourls', competitorId: null, clicks: 19_999 });
  }, 300_000);
});
