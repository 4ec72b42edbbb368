import { DUMMY_PASSWORD_HASH, dummyPasswordHash, hashPassword, needsRehash, PasswordHasher, verifyPassword } from './password';

describe('password hashing (scrypt)', () => {
  it('hashes at N = 2^17 by default (decisions §14) and verifies the right password only', async () => {
    const a = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(needsRehash(a)).toBe(false);
  });

  it('uses a fresh salt each time, at the configured cost', async () => {
    const a = await hashPassword('correct horse battery', 14);
    const b = await hashPassword('correct horse battery', 14);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', b)).toBe(true);
  });

  it('flags weaker hashes for the upgrade at login', async () => {
    const old = await hashPassword('pw-pw-pw-pw', 14);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(old, 14)).toBe(false);
    expect(needsRehash('garbage')).toBe(true);
  });

  it('refuses malformed or absurd stored parameters without deriving', async () => {
    expect(await verifyPassword('anything', DUMMY_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
    expect(await verifyPassword('anything', `scrypt$${2 ** 24}$8$1$AAAA$AAAA`)).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$1000$8$1$AAAA$AAAA')).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$16384$8$1$AAAA$')).toBe(false);
  });

  it('PasswordHasher follows PASSWORD_SCRYPT_LOG2N and verifies a missing hash against a dummy of the same cost', async () => {
    const hasher = new PasswordHasher({ PASSWORD_SCRYPT_LOG2N: 14 });
    expect(hasher.dummyHash).toBe(dummyPasswordHash(14));
    const h = await hasher.hash('some password');
    expect(h).toMatch(/^scrypt\$16384\$/);
    expect(await hasher.verify('some password', h)).toBe(true);
    expect(await hasher.verify('some password', undefined)).toBe(false);
    expect(hasher.needsRehash(h)).toBe(false);
    expect(new PasswordHasher({ PASSWORD_SCRYPT_LOG2N: 17 }).needsRehash(h)).toBe(true);
  });
});
