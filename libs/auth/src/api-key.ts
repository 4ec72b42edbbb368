import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `dl_` + 64 lowercase hex (32 random bytes), decisions §2. */
export const API_KEY_PATTERN = /^dl_[0-9a-f]{64}$/;
export const API_KEY_PREFIX = 'dl_';

/** Cheap syntactic check done before any cache or database work. */
export function isWellFormedApiKey(token: string): boolean {
  return token.length === 67 && API_KEY_PATTERN.test(token);
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('hex');
}

/** SHA-256 hex of the key: the only form stored. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && ba.length > 0 && timingSafeEqual(ba, bb);
}

/** What is stored in `api_keys.key_prefix`: `dl_` + the first 8 hex. */
export function storedKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 8);
}

/** What listings show: `dl_` + 8 hex + `…`. */
export function maskedKeyPrefix(storedPrefix: string): string {
  return `${storedPrefix}…`;
}
