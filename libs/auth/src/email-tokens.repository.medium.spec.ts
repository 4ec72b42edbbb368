import { createHash } from 'node:crypto';
import { sqlState } from '@dl/platform/db';
import { rejectionOf, useRepository } from '@dl/testing';
import { EmailTokensRepository } from './email-tokens.repository';

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const HOUR = 3_600_000;

describe(EmailTokensRepository.name, () => {
  const t = useRepository((prisma) => new EmailTokensRepository(prisma));
  const consume = (kind: 'VERIFY' | 'RESET', hash: string, now = new Date()) => t.repo.transaction((tx) => t.repo.consume(tx, kind, hash, now));

  it('a live token is consumed once and answers its user; a second use finds nothing', async () => {
    const user = t.acme.owner.user.id;
    await t.repo.create(user, 'VERIFY', hashOf('dlv_one'), new Date(Date.now() + HOUR));
    expect(await consume('VERIFY', hashOf('dlv_one'))).toEqual({ userId: user });
    expect(await consume('VERIFY', hashOf('dlv_one'))).toBeNull();
    expect(await t.env.prisma.emailToken.findUnique({ where: { tokenHash: hashOf('dlv_one') } })).toMatchObject({ userId: user, usedAt: expect.any(Date) });
  });

  it('an unknown token, another kind, an expired one: null, and nothing is marked used', async () => {
    const user = t.other.owner.user.id;
    await t.repo.create(user, 'RESET', hashOf('dlr_two'), new Date(Date.now() + HOUR));
    await t.repo.create(user, 'RESET', hashOf('dlr_old'), new Date(Date.now() - 1));
    expect(await consume('RESET', hashOf('dlr_unknown'))).toBeNull();
    expect(await consume('VERIFY', hashOf('dlr_two'))).toBeNull();
    expect(await consume('RESET', hashOf('dlr_old'))).toBeNull();
    expect(await t.env.prisma.emailToken.count({ where: { userId: user, usedAt: { not: null } } })).toBe(0);
  });

  it('of two concurrent uses of one token, exactly one wins', async () => {
    await t.repo.create(t.acme.owner.user.id, 'RESET', hashOf('dlr_race'), new Date(Date.now() + HOUR));
    const results = await Promise.all(Array.from({ length: 5 }, () => consume('RESET', hashOf('dlr_race'))));
    expect(results.filter((r) => r !== null)).toEqual([{ userId: t.acme.owner.user.id }]);
  });

  it('a token hash stored twice is refused by its unique index (23505); an unknown user by the foreign key (23503)', async () => {
    await t.repo.create(t.acme.owner.user.id, 'VERIFY', hashOf('dlv_dup'), new Date(Date.now() + HOUR));
    expect(sqlState(await rejectionOf(t.repo.create(t.other.owner.user.id, 'VERIFY', hashOf('dlv_dup'), new Date(Date.now() + HOUR))))).toBe('23505');
    expect(sqlState(await rejectionOf(t.repo.create('00000000-0000-4000-8000-000000000000', 'VERIFY', hashOf('dlv_x'), new Date())))).toBe('23503');
  });
});
