import { bad, LinksWorld, linksWorld } from './test/links-setup';

const U = 'https://example.com';
const BRANDED = 'go.controls.test';

/** decisions §16: the link-control fields on create, update, bulk and template defaults. */
describe('links: link-control fields', () => {
  let w: LinksWorld;
  let templateA: string;

  beforeAll(async () => {
    w = await linksWorld();
    templateA = w.a.template.id;
    // Cloaking needs a branded domain (decisions §22).
    await w.env.prisma.domain.create({ data: { organizationId: w.a.organization.id, domain: BRANDED, verificationToken: 'c'.repeat(32), status: 'verified' } });
  });
  afterAll(() => w?.close());

  const create = (body: Record<string, unknown>) => w.http().post('/api/links', { templateId: templateA, originalUrl: U, ...body });
  const count = async () => (await w.http().get('/api/links').expect(200)).body.length as number;

  const variants = [
    { url: 'https://a.example/', weight: 30 },
    { url: 'https://b.example/', weight: 70 },
  ];
  const rules = [
    { conditions: { countries: ['US', 'CA'], devices: ['ios'] }, url: 'https://us.example/' },
    { conditions: { languages: ['fr'], query: { ref: 'news' }, after: '2026-01-01T00:00:00Z', before: '2027-01-01T00:00:00Z' }, url: 'https://fr.example/' },
    { conditions: { os: ['Windows', 'macOS'], browsers: ['Chrome', 'Samsung Internet'] }, url: 'https://desk.example/' },
  ];

  it('create stores every field, shows hasPassword (never the password) on create and reads', async () => {
    const res = await create({
      password: 'open sesame',
      expiredUrl: 'https://example.com/over',
      maxClicks: 100,
      variants,
      redirectRules: rules,
      cloak: true,
      domain: BRANDED,
      publicStats: true,
      tags: ['  Launch ', 'launch', 'Q4'],
    }).expect(201);
    expect(res.body).toMatchObject({
      has_password: true,
      expired_url: 'https://example.com/over',
      max_clicks: 100,
      variants,
      redirect_rules: [
        rules[0],
        { conditions: { ...rules[1].conditions, after: '2026-01-01T00:00:00.000Z', before: '2027-01-01T00:00:00.000Z' }, url: 'https://fr.example/' },
        rules[2],
      ],
      cloak: true,
      public_stats: true,
      tags: ['Launch', 'Q4'],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/sesame|scrypt|password_hash|passwordHash/);
    const read = await w.http().get(`/api/links/${res.body.id}`).expect(200);
    expect(read.body).toMatchObject({ hasPassword: true, maxClicks: 100, expiredUrl: 'https://example.com/over', cloak: true, publicStats: true, variants });
    expect(read.body.password).toBeUndefined();
    expect(JSON.stringify(read.body)).not.toMatch(/sesame|scrypt/);
    const row = await w.env.prisma.link.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
  });

  it('update changes and removes fields (password: null removes it; null booleans go back to false)', async () => {
    const id = (await create({ password: 'abcd', cloak: true, domain: BRANDED, variants }).expect(201)).body.id;
    const res = await w.http().put(`/api/links/${id}`, { password: null, cloak: null, variants: null, maxClicks: 5, tags: ['x'] }).expect(200);
    expect(res.body).toMatchObject({ hasPassword: false, cloak: false, variants: null, maxClicks: 5, tags: ['x'] });
    const again = await w.http().put(`/api/links/${id}`, { password: 'new-pass' }).expect(200);
    expect(again.body.hasPassword).toBe(true);
    expect(again.body.maxClicks).toBe(5);
  });

  it('bulk create and bulk update carry the fields', async () => {
    const res = await w.http().post('/api/links/bulk-create', {
      links: [
        { templateId: templateA, originalUrl: U, password: 'pass1', maxClicks: 3 },
        { templateId: templateA, originalUrl: U, variants, tags: ['b'] },
      ],
    }).expect(201);
    expect(res.body.links.map((l: Record<string, unknown>) => [l.has_password, l.max_clicks, l.tags])).toEqual([
      [true, 3, []],
      [false, null, ['b']],
    ]);
    const upd = await w.http().post('/api/links/bulk-update', {
      updates: [{ id: res.body.links[0].id, data: { password: null, publicStats: true } }],
    }).expect(200);
    expect(upd.body.links[0]).toMatchObject({ hasPassword: false, publicStats: true });
  });

  it('template defaults fill the fields (password is not a default)', async () => {
    const t = await w.http().post('/api/templates', {
      name: 'Controls', slug: 'controls',
      defaults: { maxClicks: 10, expiredUrl: 'https://example.com/gone', cloak: true, tags: ['t'], variants },
    }).expect(201);
    const link = await w.http().post('/api/links', { templateId: t.body.id, originalUrl: U, domain: BRANDED }).expect(201);
    expect(link.body).toMatchObject({ max_clicks: 10, expired_url: 'https://example.com/gone', cloak: true, tags: ['t'], variants });
    const refused = await w.http().post('/api/templates', { name: 'P', slug: 'p', defaults: { password: 'abcd' } }).expect(400);
    expect(refused.body).toEqual(bad('Validation error', { 'defaults.password': 'Unknown field' }));
  });

  it('cloak: true on the service host → 400 validation.cloak, on create and update (decisions §22)', async () => {
    const refused = bad('Validation error', { cloak: 'Cloaking needs a branded domain' });
    expect((await create({ cloak: true }).expect(400)).body).toEqual(refused);
    const id = (await create({}).expect(201)).body.id;
    expect((await w.http().put(`/api/links/${id}`, { cloak: true }).expect(400)).body).toEqual(refused);
  });

  // One refusal of each kind over HTTP; every rule of the fields is in libs/links/src/link.dto.spec.ts.
  it.each([
    ['weights not summing to 100', { variants: [{ url: U, weight: 50 }, { url: U, weight: 40 }] }, 'Validation error', { variants: 'Weights must sum to 100' }],
    ['a javascript: variant URL', { variants: [{ url: U, weight: 50 }, { url: 'javascript:alert(1)', weight: 50 }] }, 'Invalid URL format', { 'variants[1].url': 'Must be a valid URL' }],
  ])('%s → 400, nothing written', async (_name, extra, message, validation) => {
    const before = await count();
    const res = await create(extra).expect(400);
    expect(res.body).toEqual(bad(message, validation));
    expect(await count()).toBe(before);
  });

  it('bulk names the failing item and writes nothing', async () => {
    const before = await count();
    const res = await w.http().post('/api/links/bulk-create', {
      links: [
        { templateId: templateA, originalUrl: U },
        { templateId: templateA, originalUrl: U, variants: [{ url: U, weight: 60 }, { url: U, weight: 60 }] },
      ],
    }).expect(400);
    expect(res.body).toEqual(bad('Validation error: links[1].variants: Weights must sum to 100', { 'links[1].variants': 'Weights must sum to 100' }));
    expect(await count()).toBe(before);
  });
});
