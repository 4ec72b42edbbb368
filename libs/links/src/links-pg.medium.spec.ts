import { Tier } from '@dl/platform/db';
import { createTestEnv, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { LinksPg } from './links-pg';

type Item = Record<string, unknown>;

describe('LinksPg: a whole list is kept with the version it was built at', () => {
  let env: TestEnv;
  let org: SeededOrganization;
  let other: SeededOrganization;
  let pg: LinksPg;

  const list = async (organizationId = org.organization.id): Promise<Item[]> =>
    JSON.parse((await pg.listPage(organizationId)).json) as Item[];

  beforeAll(async () => {
    env = await createTestEnv();
    org = await seedOrganization(env, { tier: Tier.UNLIMITED });
    other = await seedOrganization(env);
    pg = new LinksPg(env.config);
    pg.listCacheMinChars = 0;
    await env.prisma.$executeRaw`
      INSERT INTO links (organization_id, user_id, template_id, short_code, original_url, title, created_at)
      SELECT ${org.organization.id}::uuid, ${org.owner.user.id}::uuid, ${org.template.id}::uuid,
             'Kept' || g, 'https://example.com/' || g, 'Kept ' || g, now() - g * interval '1 minute'
      FROM generate_series(1, 5) g`;
  });
  afterAll(async () => {
    await pg?.onModuleDestroy();
    await env?.teardown();
  });

  it('answers the kept text while nothing changed', async () => {
    const first = await list();
    expect(first.map((l) => l.shortCode)).toEqual(['Kept1', 'Kept2', 'Kept3', 'Kept4', 'Kept5']);
    const hits = pg.listCacheHits;
    expect(await list()).toEqual(first);
    expect(pg.listCacheHits).toBe(hits + 1);
    // Another organization's list is its own.
    expect(await list(other.organization.id)).toEqual([]);
  });

  const changes: Array<[string, () => Promise<unknown>]> = [
    ['an edit', () => env.prisma.$executeRaw`UPDATE links SET title = 'Renamed', updated_at = now() WHERE short_code = 'Kept1'`],
    ["the worker's click counter", () => env.prisma.$executeRaw`UPDATE links SET click_count = click_count + 3 WHERE short_code = 'Kept2'`],
    ["the template's slug", () => env.prisma.$executeRaw`UPDATE templates SET slug = 'renamed' WHERE id = ${org.template.id}::uuid`],
    ['a delete', () => env.prisma.$executeRaw`DELETE FROM links WHERE short_code = 'Kept3'`],
    [
      'a new link',
      () => env.prisma.$executeRaw`
        INSERT INTO links (organization_id, user_id, template_id, short_code, original_url)
        VALUES (${org.organization.id}::uuid, ${org.owner.user.id}::uuid, ${org.template.id}::uuid, 'Kept9', 'https://example.com/9')`,
    ],
  ];

  it.each(changes)('%s: the next request builds the list again, then keeps that one', async (_name, change) => {
    const before = await list();
    await change();
    const hits = pg.listCacheHits;
    const after = await list();
    expect(pg.listCacheHits).toBe(hits);
    expect(after).not.toEqual(before);
    expect(await list()).toEqual(after);
    expect(pg.listCacheHits).toBe(hits + 1);
  });

  it('filtered lists and pages are built every time', async () => {
    const hits = pg.listCacheHits;
    await pg.listPage(org.organization.id, { search: 'kept' });
    await pg.listPage(org.organization.id, { search: 'kept' });
    await pg.listPage(org.organization.id, { limit: 2 });
    await pg.listPage(org.organization.id, { limit: 2 });
    expect(pg.listCacheHits).toBe(hits);
  });
});
