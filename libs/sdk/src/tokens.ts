import { createHash, randomBytes } from 'node:crypto';

/** App (SDK) token: `dla_` + 48 lowercase hex (24 random bytes). Only its SHA-256 is stored. */
export const APP_TOKEN_PATTERN = /^dla_[0-9a-f]{48}$/;
/** Pixel site key: `dlp_` + 32 lowercase hex, public by design (it sits in web pages). */
export const SITE_KEY_PATTERN = /^dlp_[0-9a-f]{32}$/;

export function generateAppToken(): string {
  return `dla_${randomBytes(24).toString('hex')}`;
}

export function generateSiteKey(): string {
  return `dlp_${randomBytes(16).toString('hex')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Masked prefix shown in listings: `dla_` + first 8 hex + `…`. */
export function tokenPrefix(token: string): string {
  return `${token.slice(0, 12)}…`;
}

/**
 * A deterministic UUID (v4 layout) from a namespace and a name: the SDK's own event id is
 * turned into a storage id scoped by app, so two tenants sending the same id never collide.
 */
export function scopedUuid(namespace: string, name: string): string {
  const h = createHash('sha256').update(`${namespace}\u0000${name}`).digest();
  h[6] = (h[6] & 0x0f) | 0x40;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}
