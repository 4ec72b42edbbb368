import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { isUuid } from '@dl/platform/validation';
import { AccountsRepository } from './accounts.repository';
import { InvalidSessionError } from './auth.errors';
import { sessionSecret, SessionTokens } from './session-tokens';

/** How long a dashboard stays signed in without a new login (each refresh extends it). */
export const REFRESH_TTL_SECONDS = 14 * 24 * 3600;

interface RefreshClaims {
  sub: string;
  org: string;
  exp: number;
}

/**
 * The dashboard's refresh credential (docs/decisions/accounts.md, "The dashboard's refresh cookie"):
 * `base64url(claims).base64url(HMAC-SHA256)` with a key derived from JWT_SECRET for this
 * purpose only, so it can never pass as an access token nor an access token as it. It
 * travels only in an HttpOnly cookie on /auth. A refresh answers an access token with the
 * member's current role; a user no longer in the organization gets 401.
 */
@Injectable()
export class SessionRefreshService {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tokens: SessionTokens,
    private readonly accounts: AccountsRepository,
  ) {
    this.key = createHmac('sha256', sessionSecret(config)).update('dl-dashboard-refresh-v1').digest();
  }

  /** A refresh credential for a user's session in an organization. */
  issue(userId: string, organizationId: string, now: number = Math.floor(Date.now() / 1000)): string {
    const body = Buffer.from(JSON.stringify({ sub: userId, org: organizationId, exp: now + REFRESH_TTL_SECONDS })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The claims of an access token just issued (login, signup): who the refresh credential is for. */
  claimsOf(accessToken: string): { sub: string; org: string } | null {
    return this.tokens.verify(accessToken);
  }

  /** A fresh access token and a renewed refresh credential, or InvalidSessionError. */
  async refresh(
    credential: string | undefined,
    now: number = Math.floor(Date.now() / 1000),
  ): Promise<{ accessToken: string; expiresIn: number; refresh: string }> {
    const claims = credential ? this.verify(credential, now) : null;
    if (!claims) throw new InvalidSessionError();
    const membership = (await this.accounts.membershipsOfUser(claims.sub)).find((m) => m.organizationId === claims.org);
    if (!membership) throw new InvalidSessionError();
    return {
      accessToken: this.tokens.sign({ sub: claims.sub, org: claims.org, role: membership.role }),
      expiresIn: this.tokens.ttlSeconds,
      refresh: this.issue(claims.sub, claims.org, now),
    };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  private verify(credential: string, now: number): RefreshClaims | null {
    if (credential.length > 512) return null;
    const [body, mac, extra] = credential.split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: Partial<RefreshClaims>;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<RefreshClaims>;
    } catch {
      return null;
    }
    if (typeof claims.sub !== 'string' || typeof claims.org !== 'string' || typeof claims.exp !== 'number') return null;
    if (!isUuid(claims.sub) || !isUuid(claims.org) || claims.exp <= now) return null;
    return { sub: claims.sub, org: claims.org, exp: claims.exp };
  }
}
