import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as decisions §20 sets it: SHA-1, 6 digits, 30 s steps, one step either side accepted. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Deeplink';
export const RECOVERY_CODE_COUNT = 10;

const CODE = /^\d{6}$/;
/** Recovery codes: 10 lowercase hex in two groups of five (40 random bits), e.g. `3f9a1-c07be`. */
const RECOVERY_CODE = /^[0-9a-f]{5}-?[0-9a-f]{5}$/;

/** A new 160-bit TOTP secret, base32 (what authenticator apps take). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://totp/...` URI an authenticator app scans. */
export function otpauthUrl(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/** The time step a moment falls in. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of a secret at a moment (tests and the dashboard's screenshots use it). */
export function totpCode(secret: string, nowMs: number): string {
  return totp(secret).generate({ timestamp: nowMs });
}

/**
 * The time step a code belongs to when it is valid now (this step or one either side) and
 * later than `lastStep`, the last step this secret accepted: null otherwise. A code already
 * used, or an older one of the window, is therefore refused (replay).
 */
export function acceptTotp(secret: string, code: string, nowMs: number, lastStep: number | null): number | null {
  if (!CODE.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  const step = totpStep(nowMs) + delta;
  if (lastStep !== null && step <= lastStep) return null;
  return step;
}

/** Ten fresh recovery codes, as shown to the user once. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
}

/** What a typed recovery code is compared as: lower case, no spaces, the dash optional. Null when it cannot be one. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.trim().toLowerCase().replace(/\s+/g, '');
  if (!RECOVERY_CODE.test(compact)) return null;
  const hex = compact.replace('-', '');
  return `${hex.slice(0, 5)}-${hex.slice(5)}`;
}

/** SHA-256 of a normalized code: 40 random bits need no slow hash, and the hash is what is stored. */
export function hashRecoveryCode(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}

/** A challenge token of the two-step login: `dlc_` + 48 hex; the store keeps its SHA-256. */
export function newChallengeToken(): string {
  return `dlc_${randomBytes(24).toString('hex')}`;
}

export function hashChallengeToken(token: string): string | null {
  if (!/^dlc_[0-9a-f]{48}$/.test(token)) return null;
  return createHash('sha256').update(token).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
