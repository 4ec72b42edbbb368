import { createHash, randomBytes } from 'node:crypto';
import { sqlState } from '@dl/platform/db';
import { rejectionOf, useRepository } from '@dl/testing';
import { ApiKeysRepository } from './api-keys.repository';

const hash = () => createHash('sha256').update(randomBytes(16)).digest('hex');

describe(ApiKeysRepository.name, () => {
  const t = useRepository((prisma) => new ApiKeysRepository(prisma));

  const create = (organizationId: string, userId: string, name: string, keyHash = hash()) =>
    t.repo.transaction((tx) => t.repo.create(tx, organizationId, { userId, name, keyHash, keyPrefix: 'dl_abcdefgh', scopes: ['links:read'], expiresAt: null }));

  it('creates, lists newest first, renames and rescopes, revokes by id and by name', async () => {
    const org = t.acme.organization.id;
    const user = t.acme.owner.user.id;
    const keyHash = hash();
    const ci = await create(org, user, 'ci', keyHash);
    expect(ci).toEqual({ id: ci.id, userId: user, name: 'ci', keyPrefix: 'dl_abcdefgh', keyHash, createdAt: expect.any(Date), lastUsedAt: null, lastUsedIp: null, scopes: ['links:read'], expiresAt: null });
    const deploy = await create(org, user, 'deploy');
    expect(await t.repo.countLive(org)).toBe(3); // with the seed key
    expect((await t.repo.list(org, user)).map((k) => k.name)).toEqual(['deploy', 'ci', 'seed key']);
    expect(await t.repo.update(org, ci.id, { name: 'ci-2' })).toMatchObject({ id: ci.id, name: 'ci-2' });
    const until = new Date('2031-01-01T00:00:00Z');
    expect(await t.repo.update(org, ci.id, { scopes: ['all'], expiresAt: until })).toMatchObject({ name: 'ci-2', scopes: ['all'], expiresAt: until });

    expect(await t.repo.revoke(org, ci.id)).toBe(true);
    expect(await t.repo.revoke(org, ci.id)).toBe(false);
    expect(await t.repo.find(org, ci.id)).toBeNull();
    expect(await t.repo.revokeByName(org, user, 'deploy')).toEqual([deploy.keyHash]);
    expect((await t.repo.listAll(org)).map((k) => k.name)).toEqual(['seed key']);
  });

  it("another organization's key answers as missing and is left untouched", async () => {
    const mine = await create(t.acme.organization.id, t.acme.owner.user.id, 'mine');
    const foreign = t.other.organization.id;
    expect(await t.repo.find(foreign, mine.id)).toBeNull();
    expect(await t.repo.update(foreign, mine.id, { name: 'taken', scopes: ['all'] })).toBeNull();
    expect(await t.repo.revoke(foreign, mine.id)).toBe(false);
    expect(await t.repo.revokeByName(foreign, t.acme.owner.user.id, 'mine')).toEqual([]);
    expect((await t.repo.list(foreign)).map((k) => k.name)).toEqual(['seed key']);
    expect(await t.repo.find(t.acme.organization.id, mine.id)).toMatchObject({ name: 'mine' });
  });

  it('a key hash that exists already is refused by its unique index (23505)', async () => {
    const keyHash = hash();
    await create(t.acme.organization.id, t.acme.owner.user.id, 'first', keyHash);
    expect(sqlState(await rejectionOf(create(t.other.organization.id, t.other.owner.user.id, 'second', keyHash)))).toBe('23505');
  });
});
