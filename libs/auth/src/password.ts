import { randomBytes, scrypt, ScryptOptions, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';

/** scrypt cost of new hashes (decisions §14: N = 2^17). */
export const DEFAULT_SCRYPT_LOG2N = 17;
const R = 8;
const P = 1;
const KEYLEN = 32;
/** Largest N a stored hash may ask for (2^20): a tampered row cannot make us allocate gigabytes. */
const MAX_LOG2N = 20;

interface Params {
  N: number;
  r: number;
  p: number;
  keylen: number;
}

/** scrypt needs 128·N·r bytes; Node refuses above `maxmem` (32 MiB by default), so allow that plus slack. */
function maxmemFor(o: Params): number {
  return 128 * o.N * o.r + 16 * 1024 * 1024;
}

function derive(password: string, salt: Buffer, o: Params): Promise<Buffer> {
  const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: maxmemFor(o) };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, o.keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

function parse(stored: string): { params: Params; salt: Buffer; hash: Buffer } | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, salt, hash] = parts;
  const N = Number(n);
  const params = { N, r: Number(r), p: Number(p), keylen: 0 };
  const ok =
    Number.isInteger(N) && N >= 2 && N <= 2 ** MAX_LOG2N && (N & (N - 1)) === 0 &&
    Number.isInteger(params.r) && params.r >= 1 && params.r <= 32 &&
    Number.isInteger(params.p) && params.p >= 1 && params.p <= 16;
  if (!ok) return null;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length === 0) return null;
  return { params: { ...params, keylen: expected.length }, salt: Buffer.from(salt, 'base64'), hash: expected };
}

/** `scrypt$N$r$p$salt$hash` (base64). Parameters travel with the hash so they can be raised later. */
export async function hashPassword(password: string, log2N: number = DEFAULT_SCRYPT_LOG2N): Promise<string> {
  const salt = randomBytes(16);
  const params = { N: 2 ** log2N, r: R, p: P, keylen: KEYLEN };
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.params);
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** True when a stored hash is weaker than what new hashes use (upgraded at the next login). */
export function needsRehash(stored: string, log2N: number = DEFAULT_SCRYPT_LOG2N): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.params.N < 2 ** log2N || parsed.params.r < R || parsed.params.keylen < KEYLEN;
}

/** A hash no password matches, verified against when the email is unknown (same timing as a real one). */
export function dummyPasswordHash(log2N: number = DEFAULT_SCRYPT_LOG2N): string {
  return `scrypt$${2 ** log2N}$${R}$${P}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEYLEN).toString('base64')}`;
}
export const DUMMY_PASSWORD_HASH = dummyPasswordHash();

/**
 * Password hashing at the configured cost (PASSWORD_SCRYPT_LOG2N, 17 by default;
 * the test harness lowers it so seeding stays fast). scrypt runs on libuv's pool.
 */
@Injectable()
export class PasswordHasher {
  readonly log2N: number;
  readonly dummyHash: string;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'PASSWORD_SCRYPT_LOG2N'>) {
    this.log2N = config.PASSWORD_SCRYPT_LOG2N ?? DEFAULT_SCRYPT_LOG2N;
    this.dummyHash = dummyPasswordHash(this.log2N);
  }

  hash(password: string): Promise<string> {
    return hashPassword(password, this.log2N);
  }

  /** Verifies against the stored hash, or against a dummy of the same cost when there is none. */
  verify(password: string, stored: string | undefined | null): Promise<boolean> {
    return verifyPassword(password, stored ?? this.dummyHash);
  }

  needsRehash(stored: string): boolean {
    return needsRehash(stored, this.log2N);
  }
}
