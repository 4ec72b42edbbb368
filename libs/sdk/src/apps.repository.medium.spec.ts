import { sqlState } from '@dl/platform/db';
import { rejectionOf, repositoryEnv, TestEnv } from '@dl/testing';
import { AppsRepository, NewApp } from './apps.repository';
import { generateAppToken, hashToken, tokenPrefix } from './tokens';

describe(AppsRepository.name, () => {
  let env: TestEnv, repo: AppsRepository, acme: string, other: string;

  beforeAll(async () => {
    ({ env, repo, acmeId: acme, otherId: other } = await repositoryEnv((prisma) => new AppsRepository(prisma)));
  });
  afterAll(() => env?.teardown());

  const newApp = (name: string, token = generateAppToken()): NewApp => ({
    name,
    platform: 'ios',
    bundleId: 'com.example.shop',
    packageName: null,
    appStoreUrl: 'https://apps.apple.com/app/id1',
    teamId: 'ABCDE12345',
    sha256Fingerprints: [],
    tokenHash: hashToken(token),
    tokenPrefix: tokenPrefix(token),
  });

  it('creates, lists the live apps newest first, finds the credential of a token until it is revoked', async () => {
    const token = generateAppToken();
    const shop = await repo.create(acme, newApp('Shop', token));
    expect(shop).toMatchObject({ organizationId: acme, name: 'Shop', platform: 'ios', bundleId: 'com.example.shop', teamId: 'ABCDE12345', revokedAt: null, lastSeenAt: null });
    const blog = await repo.create(acme, newApp('Blog'));
    expect((await repo.list(acme)).map((a) => a.name)).toEqual(['Blog', 'Shop']);
    expect(await repo.findCredentialByTokenHash(hashToken(token))).toEqual({ appId: shop.id, organizationId: acme });

    expect(await repo.revoke(acme, shop.id)).toBe(hashToken(token));
    expect(await repo.revoke(acme, shop.id)).toBeNull();
    expect(await repo.findCredentialByTokenHash(hashToken(token))).toBeNull();
    expect((await repo.list(acme)).map((a) => a.id)).toEqual([blog.id]);
  });

  it("another organization's app answers as missing and keeps working", async () => {
    const token = generateAppToken();
    const theirs = await repo.create(other, newApp('Theirs', token));
    expect(await repo.revoke(acme, theirs.id)).toBeNull();
    expect((await repo.list(acme)).map((a) => a.name)).not.toContain('Theirs');
    expect(await repo.findCredentialByTokenHash(hashToken(token))).toEqual({ appId: theirs.id, organizationId: other });
  });

  it('a token hash another app has is refused by its unique index (23505)', async () => {
    const token = generateAppToken();
    await repo.create(acme, newApp('First', token));
    expect(sqlState(await rejectionOf(repo.create(other, newApp('Second', token))))).toBe('23505');
  });
});
