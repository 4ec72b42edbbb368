import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RedisService } from '@dl/platform/redis';
import { SsoTypeName } from './sso.dto';

/** A sign-in between start and callback: long enough to type a password and a second factor at the IdP. */
export const SSO_STATE_TTL_S = 600;
const STATE = /^[A-Za-z0-9_-]{43}$/;

export interface SsoPending {
  organizationId: string;
  type: SsoTypeName;
  email: string;
  /** The provider's own secrets of this sign-in (OIDC: PKCE verifier, nonce; SAML: request id). */
  data: Record<string, string>;
}

/**
 * Sign-ins in flight, server-side in Redis (decisions §25): the `state` (32 random bytes) is the
 * only thing the browser carries; PKCE verifier and nonce never leave the server. A state is
 * taken once (GETDEL), so a replayed or forged callback finds nothing.
 */
@Injectable()
export class SsoStateStore {
  constructor(private readonly redis: RedisService) {}

  newState(): string {
    return randomBytes(32).toString('base64url');
  }

  async save(state: string, pending: SsoPending): Promise<void> {
    await this.redis.client.set(this.key(state), JSON.stringify(pending), 'EX', SSO_STATE_TTL_S);
  }

  /** The pending sign-in of `state`, removed; null for an unknown, used, expired or malformed state. */
  async take(state: unknown): Promise<SsoPending | null> {
    if (typeof state !== 'string' || !STATE.test(state)) return null;
    const raw = await this.redis.client.getdel(this.key(state));
    return raw ? (JSON.parse(raw) as SsoPending) : null;
  }

  private key(state: string): string {
    return this.redis.key('sso', 'state', state);
  }
}
