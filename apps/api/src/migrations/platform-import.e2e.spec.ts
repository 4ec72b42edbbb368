import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUTO_FORMATS_MESSAGE } from '@dl/links';
import { Tier } from '@dl/platform/db';
import { seedOrganization } from '@dl/testing';
import { importUpload } from './test/import-upload';
import { bad, LinksWorld, linksWorld } from '../links/test/links-setup';

const FIXTURES = join(__dirname, '../../../../libs/links/src/import/fixtures');
const fixture = (platform: string) => readFileSync(join(FIXTURES, `${platform}.csv`), 'utf8');

interface Expected {
  code: string;
  url: string;
  title: string | null;
  tags: string[];
  createdAt: string;
  id: string | null;
  clicks?: number;
}

/** What each sample export (libs/links/src/import/fixtures) carries over, row by row. */
const EXPECTED: Record<string, Expected[]> = {
  bitly: [
    { code: 'bitly-spring', url: 'https://example.com/bitly/spring?ref=mail', title: 'Spring sale', tags: ['spring', 'sale'], createdAt: '2023-04-01T10:15:00.000Z', id: 'bit.ly/3BtlyA1', clicks: 1520 },
    { code: '3BtlyA2', url: 'https://example.com/bitly/blog', title: 'Blog post', tags: [], createdAt: '2022-11-20T08:00:00.000Z', id: 'bit.ly/3BtlyA2', clicks: 7 },
  ],
  rebrandly: [
    { code: 'rb-launch', url: 'https://example.com/rebrandly/launch', title: 'Launch video', tags: ['video', 'launch'], createdAt: '2021-07-13T10:54:12.000Z', id: 'ffs24cc5b6ee4a5gh7897b06ac2d16d4', clicks: 42 },
    { code: 'rb-pricing', url: 'https://example.com/rebrandly/pricing', title: 'Pricing, annual', tags: [], createdAt: '2020-02-02T00:00:00.000Z', id: '22f4ac5b6ee4a5gh7897b06ac2d16d00', clicks: 0 },
  ],
  shortio: [
    { code: 'sio-docs', url: 'https://example.com/shortio/docs', title: 'Docs home', tags: ['docs', 'help'], createdAt: '2024-01-05T12:00:00.000Z', id: 'lnk_4Gx_abc1', clicks: 310 },
    { code: 'sio-app', url: 'https://example.com/shortio/app', title: 'App download', tags: [], createdAt: '2024-02-06T12:00:00.000Z', id: 'lnk_4Gx_abc2', clicks: 12 },
  ],
  dub: [
    // Dub's export has no title column.
    { code: 'dub-pricing', url: 'https://example.com/dub/pricing', title: null, tags: ['pricing', 'web'], createdAt: '2024-05-01T09:00:00.000Z', id: 'link_1J8ZkF2m', clicks: 2048 },
    { code: 'dub-careers', url: 'https://example.com/dub/careers', title: null, tags: [], createdAt: '2024-06-11T17:30:00.000Z', id: 'link_1J8ZkF2n', clicks: 5 },
  ],
  shlink: [
    // A quoted newline inside the title.
    { code: 'shl-news', url: 'https://example.com/shlink/news', title: 'Newsletter\nFebruary', tags: ['newsletter', 'email'], createdAt: '2023-02-10T09:30:00.000Z', id: null, clicks: 99 },
    { code: 'shl-faq', url: 'https://example.com/shlink/faq', title: null, tags: [], createdAt: '2023-03-01T00:00:00.000Z', id: null, clicks: 0 },
  ],
  kutt: [
    { code: 'kutt-gh', url: 'https://example.com/kutt/github', title: 'Our GitHub', tags: [], createdAt: '2022-08-08T08:08:08.000Z', id: '6e0bcd4c-9a1e-4a0f-8a5e-0f2a3b4c5d61', clicks: 77 },
    { code: 'kutt-jobs', url: 'https://example.com/kutt/jobs', title: null, tags: [], createdAt: '2022-09-09T09:09:09.000Z', id: '6e0bcd4c-9a1e-4a0f-8a5e-0f2a3b4c5d62', clicks: 3 },
  ],
  yourls: [
    { code: 'yl-wiki', url: 'https://example.com/yourls/wiki', title: 'Team wiki', tags: [], createdAt: '2019-05-04T13:37:00.000Z', id: null, clicks: 1234 },
    { code: 'yl-status', url: 'https://example.com/yourls/status', title: 'Status page', tags: [], createdAt: '2019-06-01T00:00:00.000Z', id: null, clicks: 56 },
  ],
  firebase: [
    // FDL's export has no click counts nor tags; the link name is the title.
    { code: 'fdl-promo', url: 'https://example.com/fdl/promo', title: 'Winter promo', tags: [], createdAt: '2022-12-01T10:00:00.000Z', id: null },
    { code: 'fdl-invite', url: 'https://example.com/fdl/invite', title: null, tags: [], createdAt: '2023-01-15T16:45:00.000Z', id: null },
  ],
};

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

  it.each(Object.keys(EXPECTED))('%s: codes, titles, tags, created dates and source click counts carried over', async (platform) => {
    const res = await upload(fixture(platform), auto()).expect(200);
    expect(res.body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    for (const e of EXPECTED[platform]) {
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
