import { Injectable, Logger } from '@nestjs/common';
import { RedisService } from '@dl/platform/redis';
import { hashApiKey, isWellFormedApiKey, sameDigest } from './api-key';
import { normalizeScopes } from './api-key-scopes';
import {
  ExpiredApiKeyError,
  InvalidApiKeyError,
  InvalidSessionError,
  MissingCredentialError,
  RevokedApiKeyError,
} from './auth.errors';
import { CredentialsRepository } from './credentials.repository';
import { Principal } from './principal';
import { CredentialState, PrincipalCache } from './principal-cache';
import { SessionTokens } from './session-tokens';

const TOUCH_INTERVAL_MS = 60_000;

/** Token characters of RFC 6750 (b64token). */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** A token resolved to its principal cache entry (see Authenticator.cachedCredential). */
export interface CachedCredential {
  cacheKey: string;
  /** The token itself stops being valid then (a JWT's exp); Infinity for API keys. */
  validUntilMs: number;
}

/** An API key past its `expiresAt` (the key itself: cached entries keep the instant). */
function isExpired(principal: Principal): boolean {
  return principal.expiresAtMs !== undefined && principal.expiresAtMs <= Date.now();
}

export function apiKeyCacheKey(keyHash: string): string {
  return `k:${keyHash}`;
}
/** A session's access tokens share one entry: its membership and whether the session is live. */
export function sessionCacheKey(organizationId: string, userId: string, sessionId: string): string {
  return `s:${organizationId}:${userId}:${sessionId}`;
}

/**
 * Turns a bearer token (taken from the Authorization header by BearerStrategy,
 * passport-http-bearer) into a Principal or throws the exact 401 of decisions §2.
 * Malformed keys are refused before any cache or database work.
 */
@Injectable()
export class Authenticator {
  private readonly logger = new Logger(Authenticator.name);
  /** Last time this process recorded a key's use (lastUsedAt is written at most once a minute). */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly credentials: CredentialsRepository,
    private readonly cache: PrincipalCache,
    private readonly tokens: SessionTokens,
    private readonly redis: RedisService,
  ) {}

  async authenticateToken(token: string): Promise<Principal> {
    if (!B64TOKEN.test(token)) throw new MissingCredentialError();
    if (token.startsWith('dl_')) return this.fromApiKey(token);
    if (token.split('.').length === 3) return this.fromSession(token);
    throw new MissingCredentialError();
  }

  /**
   * Which principal cache entry a token stands for, decided in-process: a well-formed `dl_`
   * key (its SHA-256; valid for ever, what the key is worth is the cache entry's business) or
   * a JWT in the verified-token memo (valid until its `exp`). Undefined: ask authenticateToken.
   */
  cachedCredential(token: string): CachedCredential | undefined {
    if (token.startsWith('dl_')) {
      if (!isWellFormedApiKey(token)) return undefined;
      return { cacheKey: apiKeyCacheKey(hashApiKey(token)), validUntilMs: Number.POSITIVE_INFINITY };
    }
    const verified = this.tokens.verifiedClaims(token);
    if (!verified) return undefined;
    const { org, sub, sid } = verified.claims;
    return { cacheKey: sessionCacheKey(org, sub, sid), validUntilMs: verified.exp * 1000 };
  }

  /**
   * The principal of a credential when this process can answer at once: its in-process cache
   * entry is fresh (≤ 1 s, dropped at once on revocation or membership and plan changes) and
   * valid. Synchronous; undefined means "ask authenticateToken", which also answers every
   * refusal with its exact 401.
   */
  cachedPrincipal(credential: CachedCredential): Principal | undefined {
    const state = this.cache.peek(credential.cacheKey);
    if (state?.status !== 'ok' || isExpired(state.principal)) return undefined;
    return state.principal;
  }

  private async fromApiKey(key: string): Promise<Principal> {
    if (!isWellFormedApiKey(key)) throw new MissingCredentialError();
    const keyHash = hashApiKey(key);
    const state = await this.cache.get(apiKeyCacheKey(keyHash), () => this.loadApiKey(keyHash));
    if (state.status === 'revoked') throw new RevokedApiKeyError();
    if (state.status !== 'ok') throw new InvalidApiKeyError();
    if (isExpired(state.principal)) throw new ExpiredApiKeyError();
    return state.principal;
  }

  private async loadApiKey(keyHash: string): Promise<CredentialState> {
    const row = await this.credentials.findApiKeyByHash(keyHash);
    if (!row || !sameDigest(row.keyHash, keyHash)) return { status: 'unknown' };
    if (row.revoked || !row.role) return { status: 'revoked', organizationId: row.organizationId };
    return {
      status: 'ok',
      principal: {
        kind: 'apiKey',
        userId: row.userId,
        organizationId: row.organizationId,
        role: row.role,
        tier: row.tier,
        apiKeyId: row.id,
        scopes: normalizeScopes(row.scopes ?? undefined),
        ...(row.expiresAt ? { expiresAtMs: row.expiresAt.getTime() } : {}),
        ...(row.deletionScheduled ? { deletionScheduled: true } : {}),
        ...(row.suspended ? { suspended: true } : {}),
      },
    };
  }

  private async fromSession(token: string): Promise<Principal> {
    const claims = this.tokens.verify(token);
    if (!claims) throw new InvalidSessionError();
    const state = await this.cache.get(sessionCacheKey(claims.org, claims.sub, claims.sid), async () => {
      const m = await this.credentials.findSessionMembership(claims.org, claims.sub, claims.sid);
      if (!m) return { status: 'revoked', organizationId: claims.org };
      const principal: Principal = {
        kind: 'session',
        userId: claims.sub,
        organizationId: claims.org,
        role: m.role,
        tier: m.tier,
        sessionId: claims.sid,
        ...(m.twoFactorMissing ? { twoFactorMissing: true } : {}),
        ...(m.deletionScheduled ? { deletionScheduled: true } : {}),
        ...(m.suspended ? { suspended: true } : {}),
      };
      return { status: 'ok', principal };
    });
    // A token of an organization the user has left, or of a revoked or expired session, is no longer a session.
    if (state.status !== 'ok') throw new InvalidSessionError();
    return state.principal;
  }

  /**
   * Records a key's use (time and client IP) at most once a minute across all instances,
   * never awaited by the request: an in-process map, then a Redis SET NX, then one UPDATE.
   * `ip` is only evaluated when a write is due.
   */
  touch(principal: Principal, ip: () => string | null = () => null): void {
    const id = principal.apiKeyId;
    if (!id) return;
    const now = Date.now();
    const last = this.touched.get(id);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return;
    if (this.touched.size > 100_000) this.touched.clear();
    this.touched.set(id, now);
    // Read now: the socket's address is gone once the response is sent.
    const address = ip();
    void (async () => {
      if (this.redis.isReady) {
        const first = await this.redis.client.set(this.redis.key('auth', 'touch', id), '1', 'PX', TOUCH_INTERVAL_MS, 'NX');
        if (first !== 'OK') return;
      }
      await this.credentials.touchApiKey(principal.organizationId, id, new Date(now), address);
    })().catch((err) => this.logger.warn({ err: String(err) }, 'Could not record API key use'));
  }
}
