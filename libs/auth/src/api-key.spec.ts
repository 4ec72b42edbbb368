import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey, isWellFormedApiKey, maskedKeyPrefix, sameDigest, storedKeyPrefix } from './api-key';

describe('API key format', () => {
  it('generates dl_ + 64 lowercase hex, different every time', () => {
    const a = generateApiKey();
    expect(a).toMatch(/^dl_[0-9a-f]{64}$/);
    expect(isWellFormedApiKey(a)).toBe(true);
    expect(generateApiKey()).not.toBe(a);
  });

  it.each([
    ['63 hex', `dl_${'a'.repeat(63)}`],
    ['65 hex', `dl_${'a'.repeat(65)}`],
    ['upper case', `dl_${'A'.repeat(64)}`],
    ['wrong prefix', `dk_${'a'.repeat(64)}`],
    ['whitespace', ` dl_${'a'.repeat(63)}`],
    ['trailing newline', `dl_${'a'.repeat(64)}\n`],
  ])('refuses %s', (_label, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });

  it('stores the SHA-256 and shows dl_ + 8 hex + …', () => {
    const key = `dl_0123456789abcdef${'0'.repeat(48)}`;
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(maskedKeyPrefix(storedKeyPrefix(key))).toBe('dl_01234567…');
  });

  it('compares digests in constant time, refusing different lengths', () => {
    const h = hashApiKey(generateApiKey());
    expect(sameDigest(h, h)).toBe(true);
    expect(sameDigest(h, hashApiKey(generateApiKey()))).toBe(false);
    expect(sameDigest(h, h.slice(2))).toBe(false);
    expect(sameDigest('', '')).toBe(false);
  });
});
