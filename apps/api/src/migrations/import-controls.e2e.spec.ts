import request from 'supertest';
import { createApiApp } from '../app';
import { Tier } from '@dl/platform/db';
import { closeAll, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, TestEnv } from '@dl/testing';

/** Escapes one CSV cell (quotes doubled, the cell quoted). */
const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** decisions §16 and §15 on the migration import: the link controls and `domain` per row, validated like a create. */
describe('migration import: link controls and domain columns', () => {
  let env: TestEnv, api: RunningApp, org: SeededOrganization, other: SeededOrganization;
  const upload = (csv: string, conflictStrategy = 'skip') =>
    request(api.url)
      .post('/migrations/import')
      .set('Authorization', `Bearer ${org.owner.apiKey}`)
      .field('platform', 'dub')
      .field('templateId', org.template.id)
      .field('conflictStrategy', conflictStrategy)
      .attach('file', Buffer.from(csv), { filename: 'links.csv', contentType: 'text/csv' });
  const linkOf = (domainName: string, shortCode: string) =>
    env.prisma.link.findUniqueOrThrow({ where: { domainName_shortCode: { domainName, shortCode } } });

  const variants = JSON.stringify([{ url: 'https://a.example/', weight: 30 }, { url: 'https://b.example/', weight: 70 }]);
  const rules = JSON.stringify([{ conditions: { countries: ['GB'] }, url: 'https://gb.example/' }]);

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    [org, other] = await Promise.all([seedOrganization(env, { tier: Tier.BUSINESS }), seedOrganization(env, { tier: Tier.BUSINESS })]);
    const token = '0'.repeat(32);
    await env.prisma.domain.createMany({
      data: [
        { organizationId: org.organization.id, domain: 'go.import.test', status: 'verified', verificationToken: token, verifiedAt: new Date() },
        { organizationId: org.organization.id, domain: 'pending.import.test', status: 'pending', verificationToken: token },
        { organizationId: other.organization.id, domain: 'go.other.test', status: 'verified', verificationToken: token, verifiedAt: new Date() },
      ],
    });
    api = await startApp(createApiApp, env.config);
  });
  afterAll(() => closeAll(api, env));

  it('stores every control column (password hashed) and puts rows on their domain; the same code may live on two hosts', async () => {
    const csv = [
      'shortCode,url,password,expiredUrl,maxClicks,variants,redirectRules,cloak,publicStats,tags,domain',
      ['imp1', 'https://example.com/1', ' open sesame ', 'https://example.com/over', '100', cell(variants), cell(rules), 'yes', 'TRUE', 'Launch;q4', 'GO.IMPORT.TEST'].join(','),
      ['imp1', 'https://example.com/1-host', '', '', '', '', '', '0', 'false', '', ''].join(','),
      ['imp2', 'https://example.com/2', '', '', '', '', '', '', '', '', 'sho.rt'].join(','),
    ].join('\n');
    expect((await upload(csv).expect(200)).body).toEqual({ imported: 3, skipped: 0, failed: 0, errors: [] });

    const branded = await linkOf('go.import.test', 'imp1');
    expect(branded).toMatchObject({
      originalUrl: 'https://example.com/1',
      expiredUrl: 'https://example.com/over',
      maxClicks: 100,
      variants: JSON.parse(variants),
      redirectRules: [{ conditions: { countries: ['GB'] }, url: 'https://gb.example/' }],
      cloak: true,
      publicStats: true,
      tags: ['Launch', 'q4'],
      domainName: 'go.import.test',
      migrationMetadata: { competitorPlatform: 'dub', competitorId: null },
    });
    expect(branded.domainId).toEqual(expect.any(String));
    expect(branded.passwordHash).toMatch(/^scrypt\$/);
    expect(branded.passwordHash).not.toContain('sesame');
    const onHost = await linkOf('', 'imp1');
    expect(onHost).toMatchObject({ originalUrl: 'https://example.com/1-host', cloak: false, publicStats: false, passwordHash: null, domainId: null, maxClicks: null });
    expect(await linkOf('', 'imp2')).toMatchObject({ domainName: '', domainId: null });

    // Reads show the controls like any link (hasPassword, never the password).
    const read = await request(api.url).get(`/api/links/${branded.id}`).set('Authorization', `Bearer ${org.owner.apiKey}`).expect(200);
    expect(read.body).toMatchObject({ hasPassword: true, maxClicks: 100, cloak: true, publicStats: true, domain: 'go.import.test', shortUrl: 'https://go.import.test/imp1' });
    expect(JSON.stringify(read.body)).not.toMatch(/sesame|scrypt/);
  });

  it('conflicts are per domain: skip and overwrite look at the row\'s own domain', async () => {
    const csv = 'shortCode,url,domain,maxClicks\nimp1,https://example.com/new,go.import.test,7\nimp9,https://example.com/9,go.import.test,\n';
    expect((await upload(csv).expect(200)).body).toEqual({ imported: 1, skipped: 1, failed: 0, errors: [{ row: 1, message: "Short code 'imp1' is already in use: skipped" }] });
    expect((await upload(csv, 'overwrite').expect(200)).body).toEqual({ imported: 2, skipped: 0, failed: 0, errors: [] });
    expect(await linkOf('go.import.test', 'imp1')).toMatchObject({ originalUrl: 'https://example.com/new', maxClicks: 7, passwordHash: null });
    expect(await linkOf('', 'imp1')).toMatchObject({ originalUrl: 'https://example.com/1-host' });
  });

  it('each bad value is a row error naming the field, like a create; good rows still import; nothing half-written', async () => {
    const before = await env.prisma.link.count({ where: { organizationId: org.organization.id } });
    const rows: Array<[string, string]> = [
      ['password', 'abc'],
      ['maxClicks', '0'],
      ['maxClicks', 'many'],
      ['variants', cell(JSON.stringify([{ url: 'https://a.example/', weight: 50 }, { url: 'https://b.example/', weight: 40 }]))],
      ['variants', cell(JSON.stringify([{ url: 'https://a.example/', weight: 100 }]))],
      ['variants', cell(JSON.stringify([{ url: 'javascript:alert(1)', weight: 50 }, { url: 'https://b.example/', weight: 50 }]))],
      ['variants', '{not json'],
      ['redirectRules', cell(JSON.stringify([{ conditions: {}, url: 'https://x.example/' }]))],
      ['redirectRules', cell(JSON.stringify([{ conditions: { countries: ['USA'] }, url: 'https://x.example/' }]))],
      ['cloak', 'sometimes'],
      ['expiredUrl', 'not-a-url'],
      ['tags', Array.from({ length: 11 }, (_, i) => `t${i}`).join(';')],
      ['domain', 'pending.import.test'],
      ['domain', 'go.other.test'],
      ['domain', 'unknown.test'],
      ['cloak', 'true'],
    ];
    const header = 'url,password,maxClicks,variants,redirectRules,cloak,expiredUrl,tags,domain';
    const columns = header.split(',');
    const lines = rows.map(([column, value]) => columns.map((c) => (c === 'url' ? 'https://example.com/bad' : c === column ? value : '')).join(','));
    lines.push(columns.map((c) => (c === 'url' ? 'https://example.com/good' : '')).join(','));
    const res = await upload(`${header}\n${lines.join('\n')}\n`).expect(200);
    expect(res.body.imported).toBe(1);
    expect(res.body.failed).toBe(rows.length);
    expect(res.body.errors).toEqual([
      { row: 1, message: 'password: Must be 4-128 characters' },
      { row: 2, message: 'maxClicks: Must be an integer between 1 and 1000000000' },
      { row: 3, message: 'maxClicks: Must be an integer between 1 and 1000000000' },
      { row: 4, message: 'variants: Weights must sum to 100' },
      { row: 5, message: 'variants: Must be an array of 2-10 variants' },
      { row: 6, message: expect.stringMatching(/^variants\[0\]\.url: /) },
      { row: 7, message: 'variants: Must be JSON' },
      { row: 8, message: expect.stringMatching(/^redirectRules\[0\]\.conditions/) },
      { row: 9, message: expect.stringMatching(/^redirectRules\[0\]\.conditions\.countries/) },
      { row: 10, message: expect.stringMatching(/^cloak: /) },
      { row: 11, message: expect.stringMatching(/^expiredUrl: /) },
      { row: 12, message: expect.stringMatching(/^tags: /) },
      { row: 13, message: 'domain: Must be a verified domain of your organization' },
      { row: 14, message: 'domain: Must be a verified domain of your organization' },
      { row: 15, message: 'domain: Must be a verified domain of your organization' },
      // Cloaking needs a branded domain (decisions §22), as on create.
      { row: 16, message: 'cloak: Cloaking needs a branded domain' },
    ]);
    expect(await env.prisma.link.count({ where: { organizationId: org.organization.id } })).toBe(before + 1);
    expect(await env.prisma.link.count({ where: { domainName: 'go.other.test' } })).toBe(0);
  });
});
