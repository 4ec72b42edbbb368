import { createHmac, KeyObject, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Role } from '@dl/platform/db';

export interface SessionClaims {
  sub: string;
  org: string;
  role: Role;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ROLES = new Set(['OWNER', 'ADMIN', 'MEMBER', 'VIEWER']);
/** The only header this service issues or accepts: anything else (alg none, HS512, RS256, kid...) is refused. */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const B64URL = /^[A-Za-z0-9_-]+$/;
/** Clock skew tolerated on iat/nbf. */
const LEEWAY_SECONDS = 30;
/** Verified tokens remembered per process (a session makes many requests with one token). */
const VERIFIED_MAX = 10_000;
let ephemeralSecret: string | undefined;

/**
 * Dashboard sessions: HS256 JWTs signed with JWT_SECRET, claims sub/org/role, 1 hour
 * (decisions §2). Verification accepts exactly the header this service writes, checks
 * the HMAC in constant time, then `exp`; done with node:crypto because a general JWT
 * library costs several times more per request on this hot path.
 */
@Injectable()
export class SessionTokens {
  private readonly key: KeyObject;
  private readonly verified = new Map<string, { claims: SessionClaims; exp: number }>();
  readonly ttlSeconds: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    let secret = config.JWT_SECRET;
    if (!secret) {
      // Production refuses to start without it (config.ts); elsewhere sessions last one process.
      ephemeralSecret ??= randomBytes(48).toString('hex');
      secret = ephemeralSecret;
      new Logger(SessionTokens.name).warn('JWT_SECRET is not set: dashboard sessions will not survive a restart');
    }
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.ttlSeconds = config.JWT_TTL_SECONDS;
  }

  sign(claims: SessionClaims, now: number = Math.floor(Date.now() / 1000)): string {
    const payload = Buffer.from(
      JSON.stringify({ sub: claims.sub, org: claims.org, role: claims.role, iat: now, exp: now + this.ttlSeconds }),
    ).toString('base64url');
    return `${HEADER}.${payload}.${this.mac(`${HEADER}.${payload}`).toString('base64url')}`;
  }

  /** The claims of a valid token, or null (other header or algorithm, bad signature, expired, wrong shape). */
  verify(token: string, now: number = Date.now() / 1000): SessionClaims | null {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > now) return known.claims;
      this.verified.delete(token);
      return null;
    }
    const claims = this.check(token, now);
    if (claims) {
      if (this.verified.size >= VERIFIED_MAX) this.verified.clear();
      this.verified.set(token, claims);
      return claims.claims;
    }
    return null;
  }

  private check(token: string, now: number): { claims: SessionClaims; exp: number } | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts;
    if (header !== HEADER || !B64URL.test(payload) || !B64URL.test(signature)) return null;
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(`${header}.${payload}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: Record<string, unknown>;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    if (!claims || typeof claims !== 'object') return null;
    const { sub, org, role, exp, iat, nbf } = claims;
    if (typeof exp !== 'number' || exp <= now) return null;
    if (typeof iat === 'number' && iat > now + LEEWAY_SECONDS) return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + LEEWAY_SECONDS)) return null;
    if (typeof sub !== 'string' || typeof org !== 'string' || typeof role !== 'string') return null;
    if (!UUID.test(sub) || !UUID.test(org) || !ROLES.has(role)) return null;
    return { claims: { sub, org, role: role as Role }, exp };
  }

  private mac(input: string): Buffer {
    return createHmac('sha256', this.key).update(input).digest();
  }
}
