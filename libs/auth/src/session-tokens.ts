import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Role } from '@dl/platform/db';

export interface SessionClaims {
  sub: string;
  org: string;
  role: Role;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
let ephemeralSecret: string | undefined;

/** Dashboard sessions: HS256 JWTs signed with JWT_SECRET, claims sub/org/role, 1 hour (decisions §2). */
@Injectable()
export class SessionTokens {
  private readonly jwt: JwtService;
  readonly ttlSeconds: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    let secret = config.JWT_SECRET;
    if (!secret) {
      // Production refuses to start without it (config.ts); elsewhere sessions last one process.
      ephemeralSecret ??= randomBytes(48).toString('hex');
      secret = ephemeralSecret;
      new Logger(SessionTokens.name).warn('JWT_SECRET is not set: dashboard sessions will not survive a restart');
    }
    this.ttlSeconds = config.JWT_TTL_SECONDS;
    this.jwt = new JwtService({ secret, signOptions: { algorithm: 'HS256', expiresIn: this.ttlSeconds } });
  }

  sign(claims: SessionClaims): string {
    return this.jwt.sign({ sub: claims.sub, org: claims.org, role: claims.role });
  }

  /** The claims of a valid token, or null (bad signature, other algorithm, expired, wrong shape). */
  verify(token: string): SessionClaims | null {
    try {
      const payload = this.jwt.verify<Record<string, unknown>>(token, { algorithms: ['HS256'] });
      const { sub, org, role } = payload;
      if (typeof sub !== 'string' || typeof org !== 'string' || typeof role !== 'string') return null;
      if (!UUID.test(sub) || !UUID.test(org) || typeof payload.exp !== 'number') return null;
      return { sub, org, role: role as Role };
    } catch {
      return null;
    }
  }
}
