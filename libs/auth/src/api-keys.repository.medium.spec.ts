import { createHash, randomBytes } from 'node:crypto';
import { sqlState } from '@dl/platform/db';
import { rejectionOf, repositoryEnv, SeededOrganization, TestEnv } from '@dl/testing';
import { ApiKeysRepository } from './api-keys.repository';

const hash = () => createHash('sha256').update(randomBytes(16)).digest('hex');

describe(ApiKeysRepository.name, () => {
  let env: TestEnv, repo: ApiKeysRepository, acme: SeededOrganization, other: SeededOrganization;
  beforeAll(async () => ({ env, repo, acme, other } = await repositoryEnv((prisma) => new ApiKeysRepository(prisma))));
  afterAll(() => env?.teardown());

  const create = (organizationId: string, userId: string, name: string, keyHash = hash()) =>
    repo.transaction((tx) => repo.create(tx, organizationId, { userId, name, keyHash, keyPrefix: 'dl_abcdefgh', scopes: ['links:read'], expiresAt: null }));

  it('creates, lists newest first, renames and rescopes, revokes by id and by name', async () => {
    const org = acme.organization.id;
    const user = acme.owner.user.id;
    const keyHash = hash();
    const ci = await create(org, user, 'ci', keyHash);
    expect(ci).toEqual({ id: ci.id, userId: user, name: 'ci', keyPrefix: 'dl_abcdefgh', keyHash, createdAt: expect.any(Date), lastUsedAt: null, lastUsedIp: null, scopes: ['links:read'], expiresAt: null });
    const deploy = await create(org, user, 'deploy');
    expect(await repo.countLive(org)).toBe(3); // with the seed key
    expect((await repo.list(org, user)).map((k) => k.name)).toEqual(['deploy', 'ci', 'seed key']);
    expect(await repo.update(org, ci.id, { name: 'ci-2' })).toMatchObject({ id: ci.id, name: 'ci-2' });
    const until = new Date('2031-01-01T00:00:00Z');
    expect(await repo.update(org, ci.id, { scopes: ['all'], expiresAt: until })).toMatchObject({ name: 'ci-2', scopes: ['all'], expiresAt: until });

    expect(await repo.revoke(org, ci.id)).toBe(true);
    expect(await repo.revoke(org, ci.id)).toBe(false);
    expect(await repo.find(org, ci.id)).toBeNull();
    expect(await repo.revokeByName(org, user, 'deploy')).toEqual([deploy.keyHash]);
    expect((await repo.listAll(org)).map((k) => k.name)).toEqual(['seed key']);
  });

  it("another organization's key answers as missing and is left untouched", async () => {
    const mine = await create(acme.organization.id, acme.owner.user.id, 'mine');
    const foreign = other.organization.id;
    expect(await repo.find(foreign, mine.id)).toBeNull();
    expect(await repo.update(foreign, mine.id, { name: 'taken', scopes: ['all'] })).toBeNull();
    expect(await repo.revoke(foreign, mine.id)).toBe(false);
    expect(await repo.revokeByName(foreign, acme.owner.user.id, 'mine')).toEqual([]);
    expect((await repo.list(foreign)).map((k) => k.name)).toEqual(['seed key']);
    expect(await repo.find(acme.organization.id, mine.id)).toMatchObject({ name: 'mine' });
  });

  it('a key hash that exists already is refused by its unique index (23505)', async () => {
    const keyHash = hash();
    await create(acme.organization.id, acme.owner.user.id, 'first', keyHash);
    expect(sqlState(await rejectionOf(create(other.organization.id, other.owner.user.id, 'second', keyHash)))).toBe('23505');
  });
});
