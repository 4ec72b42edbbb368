import { createSecretKey, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { JwtModuleOptions, JwtService } from '@nestjs/jwt';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Role } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';

export interface SessionClaims {
  sub: string;
  org: string;
  role: Role;
  /** The `sessions` row the token was issued from: revoking it stops the token (decisions §20). */
  sid: string;
}

const ROLES = new Set(['OWNER', 'ADMIN', 'MEMBER', 'VIEWER']);
/**
 * The only header this service issues (what `@nestjs/jwt` writes for HS256). Anything else
 * (alg none, HS512, RS256, kid...) is refused before the library is asked.
 */
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
/** Clock skew tolerated on iat/nbf (never on exp). */
const LEEWAY_SECONDS = 30;
/** Verified tokens remembered per process (a session makes many requests with one token). */
const VERIFIED_MAX = 10_000;
let ephemeralSecret: string | undefined;

/**
 * JWT_SECRET, or outside production (config.ts refuses to start production without it) a
 * random secret shared by everything in this process, so sessions last one process.
 */
export function sessionSecret(config: AppConfig): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  ephemeralSecret ??= randomBytes(48).toString('hex');
  return ephemeralSecret;
}

/**
 * Options of the AuthModule's `JwtModule`: HS256 with JWT_SECRET, `expiresIn` JWT_TTL_SECONDS.
 * The secret is handed over as a KeyObject: given a string, jsonwebtoken builds one on every
 * call, which makes a verification about 50 times slower.
 */
export function jwtModuleOptions(config: AppConfig): JwtModuleOptions {
  return {
    secret: createSecretKey(Buffer.from(sessionSecret(config), 'utf8')),
    signOptions: { algorithm: 'HS256', expiresIn: config.JWT_TTL_SECONDS },
    verifyOptions: { algorithms: ['HS256'] },
  };
}

/**
 * Dashboard sessions: HS256 JWTs signed with JWT_SECRET, claims sub/org/role/sid, 1 hour
 * (decisions §2), signed and verified by `@nestjs/jwt`. A verified token is remembered
 * until its expiry, so the library's cost is paid once per token per process, not on
 * every request of a session.
 */
@Injectable()
export class SessionTokens {
  private readonly jwt: JwtService;
  private readonly verified = new Map<string, { claims: SessionClaims; exp: number }>();
  readonly ttlSeconds: number;

  /** `jwt` comes from the AuthModule's JwtModule; scripts and tests may construct with the config alone. */
  constructor(@Inject(APP_CONFIG) config: AppConfig, @Optional() jwt?: JwtService) {
    if (!config.JWT_SECRET) {
      new Logger(SessionTokens.name).warn('JWT_SECRET is not set: dashboard sessions will not survive a restart');
    }
    this.jwt = jwt ?? new JwtService(jwtModuleOptions(config));
    this.ttlSeconds = config.JWT_TTL_SECONDS;
  }

  sign(claims: SessionClaims, now: number = Math.floor(Date.now() / 1000)): string {
    // HS256 and expiresIn come from the module options; the library computes exp from this iat.
    return this.jwt.sign({ sub: claims.sub, org: claims.org, role: claims.role, sid: claims.sid, iat: now });
  }

  /** Claims and exp of a token verified before by this process and not expired (no verification work), else null. */
  verifiedClaims(token: string, now: number = Date.now() / 1000): { claims: SessionClaims; exp: number } | null {
    if (this.verify(token, now) === null) return null;
    return this.verified.get(token) ?? null;
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
    if (!token.startsWith(`${HEADER}.`)) return null;
    let claims: Record<string, unknown>;
    try {
      // Signature (HS256 only), exp; nbf is checked below with the same leeway as iat.
      claims = this.jwt.verify<Record<string, unknown>>(token, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(now),
        ignoreNotBefore: true,
      });
    } catch {
      return null;
    }
    if (!claims || typeof claims !== 'object') return null;
    const { sub, org, role, sid, exp, iat, nbf } = claims;
    if (typeof exp !== 'number' || exp <= now) return null;
    if (typeof iat === 'number' && iat > now + LEEWAY_SECONDS) return null;
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + LEEWAY_SECONDS)) return null;
    if (typeof sub !== 'string' || typeof org !== 'string' || typeof role !== 'string' || typeof sid !== 'string') return null;
    if (!isUuid(sub) || !isUuid(org) || !isUuid(sid) || !ROLES.has(role)) return null;
    return { claims: { sub, org, role: role as Role, sid }, exp };
  }
}
