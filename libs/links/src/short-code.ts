import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const SHORT_CODE_LENGTH = 7;
/** How many rounds of fresh random codes before giving up (decisions §6). */
export const SHORT_CODE_ATTEMPTS = 5;

/** `customCode`: 4-30 ASCII letters and digits, case-sensitive. */
export const CUSTOM_CODE_PATTERN = /^[A-Za-z0-9]{4,30}$/;

/**
 * Paths the short-link host and the API use. A custom (or random) code equal to
 * one of them, in any case, answers 409 as if taken.
 */
const RESERVED = new Set(
  [
    'api', 'health', 'docs', 'metrics', 'auth', 'migrations', '.well-known', 'well-known', 'qr',
    'openapi', 'static', 'assets', 'favicon', 'robots', 'sitemap', 'admin', 'login', 'logout',
    'signup', 'dashboard', 'www', 'sdk', 'pixel', 'webhooks', 'links', 'status', 'ready', 'live',
    'apple-app-site-association', 'assetlinks', 'help', 'support', 'about', 'terms', 'privacy',
  ].map((w) => w.toLowerCase()),
);

export function isReservedCode(code: string): boolean {
  return RESERVED.has(code.toLowerCase());
}

/**
 * A 7-character base62 code from the CSPRNG. Rejection sampling (bytes < 248)
 * keeps every character equally likely.
 */
export function generateShortCode(length = SHORT_CODE_LENGTH): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += ALPHABET[b % 62];
  }
  return isReservedCode(out) ? generateShortCode(length) : out;
}

/**
 * CSPRNG bytes drawn 4 KB at a time: one `randomBytes` call per ~500 codes instead of one
 * per code (the call costs far more than the bytes it returns). Each byte is used once.
 */
let pool = Buffer.alloc(0);
let poolAt = 0;
function randomByte(): number {
  if (poolAt >= pool.length) {
    pool = randomBytes(4096);
    poolAt = 0;
  }
  return pool[poolAt++];
}
