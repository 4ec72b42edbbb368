import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';

/**
 * scrypt for secrets that visitors type at the edge (link passwords): N = 2^14 (16 MB,
 * ~30-50 ms off the event loop), so a burst of wrong tries cannot exhaust the redirect's
 * memory; the per-IP try limit does the rest. Format `scrypt$N$r$p$salt$hash` (base64), as
 * the account passwords of libs/auth, so the cost can be raised later per hash.
 */
const PARAMS = { N: 16384, r: 8, p: 1, keylen: 32 };

function derive(secret: string, salt: Buffer, o: typeof PARAMS): Promise<Buffer> {
  const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 64 * 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFKC'), salt, o.keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts;
  const N = Number(n);
  // Parameters come from our own column, but a corrupt one must not pin a CPU or allocate gigabytes.
  if (!Number.isInteger(N) || N < 1024 || N > 1 << 17) return false;
  const expected = Buffer.from(hash, 'base64');
  try {
    const actual = await derive(secret, Buffer.from(salt, 'base64'), { N, r: Number(r), p: Number(p), keylen: expected.length });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}
