import { hash, randomBytes } from 'node:crypto';
import { EmailTokenKind } from '@dl/platform/db';

/** `dlv_` (verification, 24 h) and `dlr_` (password reset, 1 h) + 48 lowercase hex, single use (decisions §20). */
export const EMAIL_TOKEN_PREFIX: Record<EmailTokenKind, string> = { VERIFY: 'dlv_', RESET: 'dlr_' };
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenKind, number> = { VERIFY: 24 * 3600 * 1000, RESET: 3600 * 1000 };

export function generateEmailToken(kind: EmailTokenKind): string {
  return EMAIL_TOKEN_PREFIX[kind] + randomBytes(24).toString('hex');
}

/** SHA-256 hex of the token: the only form stored. */
export function hashEmailToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function isWellFormedEmailToken(kind: EmailTokenKind, token: unknown): token is string {
  return typeof token === 'string' && token.length === 52 && token.startsWith(EMAIL_TOKEN_PREFIX[kind]) && /^[0-9a-f]{48}$/.test(token.slice(4));
}
