import { sqlState } from '@dl/platform/db';
import { rejectionOf, repositoryEnv, TestEnv } from '@dl/testing';
import { PixelSitesRepository } from './pixel-sites.repository';
import { generateSiteKey } from './tokens';

describe(PixelSitesRepository.name, () => {
  let env: TestEnv, repo: PixelSitesRepository, acme: string, other: string;

  beforeAll(async () => {
    ({ env, repo, acmeId: acme, otherId: other } = await repositoryEnv((prisma) => new PixelSitesRepository(prisma)));
  });
  afterAll(() => env?.teardown());

  it('creates, lists newest first, finds the credential of a site key (domain lower-cased) and deletes', async () => {
    const siteKey = generateSiteKey();
    const shop = await repo.create(acme, { name: 'Shop', domain: 'Shop.Example.COM', siteKey });
    expect(shop).toMatchObject({ organizationId: acme, name: 'Shop', domain: 'Shop.Example.COM', siteKey, lastSeenAt: null });
    await repo.create(acme, { name: 'Blog', domain: 'blog.example.com', siteKey: generateSiteKey() });
    expect((await repo.list(acme)).map((s) => s.name)).toEqual(['Blog', 'Shop']);
    expect(await repo.findCredentialBySiteKey(siteKey)).toEqual({ siteId: shop.id, organizationId: acme, domain: 'shop.example.com' });

    expect(await repo.remove(acme, shop.id)).toBe(siteKey);
    expect(await repo.remove(acme, shop.id)).toBeNull();
    expect(await repo.findCredentialBySiteKey(siteKey)).toBeNull();
  });

  it("another organization's site answers as missing and keeps working", async () => {
    const siteKey = generateSiteKey();
    const theirs = await repo.create(other, { name: 'Theirs', domain: 'theirs.example.com', siteKey });
    expect(await repo.remove(acme, theirs.id)).toBeNull();
    expect((await repo.list(acme)).map((s) => s.name)).not.toContain('Theirs');
    expect(await repo.findCredentialBySiteKey(siteKey)).toEqual({ siteId: theirs.id, organizationId: other, domain: 'theirs.example.com' });
  });

  it('a site key another site has is refused by its unique index (23505)', async () => {
    const siteKey = generateSiteKey();
    await repo.create(acme, { name: 'First', domain: 'a.example.com', siteKey });
    expect(sqlState(await rejectionOf(repo.create(other, { name: 'Second', domain: 'b.example.com', siteKey })))).toBe('23505');
  });
});
