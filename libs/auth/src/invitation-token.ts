import { hash, randomBytes } from 'node:crypto';

/** `dli_` + 48 lowercase hex (24 random bytes), decisions §14. */
export const INVITATION_TOKEN_PATTERN = /^dli_[0-9a-f]{48}$/;
/** Invitations last 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export function generateInvitationToken(): string {
  return 'dli_' + randomBytes(24).toString('hex');
}

/** SHA-256 hex of the token: the only form stored. */
export function hashInvitationToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function isWellFormedInvitationToken(token: unknown): token is string {
  return typeof token === 'string' && token.length === 52 && INVITATION_TOKEN_PATTERN.test(token);
}
