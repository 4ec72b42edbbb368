import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService } from '@dl/platform/redis';
import { RedirectLinkSnapshot } from './redirect-link';

/** A proven password skips the form this long (decisions §16). */
export const UNLOCK_TTL_SECONDS = 24 * 3600;
/** Wrong tries a minute per link and client IP before the 429 page. */
export const WRONG_TRIES_PER_MINUTE = 10;

/**
 * Password-protected links at the edge: the signed cookie that skips the form for 24 h, and
 * the per-link, per-client-IP limit on wrong tries. The cookie is `<expiry>.<HMAC-SHA256 of
 * link id, expiry and the stored hash>` keyed from JWT_SECRET: it cannot be forged, works on
 * every instance, and a new password (a new hash) voids the cookies of the old one.
 */
@Injectable()
export class LinkPasswords {
  private readonly logger = new Logger('LinkPasswords');
  private readonly key: Buffer;
  private readonly secure: boolean;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // Outside production JWT_SECRET may be unset: a key every instance of this deployment shares.
    const secret = config.JWT_SECRET ?? `dev-only:${config.DATABASE_URL}`;
    this.key = createHmac('sha256', secret).update('dl link password cookie v1').digest();
    this.secure = config.SHORT_LINK_BASE_URL.startsWith('https:');
  }

  cookieName(link: RedirectLinkSnapshot): string {
    return `dl_pw_${link.shortCode}`;
  }

  /** Set-Cookie for a visitor who just gave the right password. */
  unlockCookie(link: RedirectLinkSnapshot, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + UNLOCK_TTL_SECONDS;
    return (
      `${this.cookieName(link)}=${expires}.${this.sign(link, expires)}; Max-Age=${UNLOCK_TTL_SECONDS}; ` +
      `Path=/${link.shortCode}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`
    );
  }

  /** Does the request carry a valid, unexpired unlock cookie for this link? */
  unlocked(link: RedirectLinkSnapshot, cookieHeader: string | null, now = Date.now()): boolean {
    if (!cookieHeader || !link.passwordHash) return false;
    const name = `${this.cookieName(link)}=`;
    for (const part of cookieHeader.split(';')) {
      const item = part.trim();
      if (!item.startsWith(name)) continue;
      const [exp, sig] = item.slice(name.length).split('.');
      const expires = Number(exp);
      if (!Number.isInteger(expires) || expires * 1000 <= now || !sig) continue;
      const expected = Buffer.from(this.sign(link, expires));
      const given = Buffer.from(sig);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
    return false;
  }

  /** More than the allowed wrong tries this minute? (Redis down: not limited.) */
  async blocked(link: RedirectLinkSnapshot, ip: string | null): Promise<boolean> {
    try {
      const n = await this.redis.client.get(this.triesKey(link, ip));
      return n !== null && Number(n) > WRONG_TRIES_PER_MINUTE;
    } catch (err) {
      this.logger.warn({ err }, 'password try limit unavailable');
      return false;
    }
  }

  /** Counts a wrong try; true when it is past the limit (answer 429). */
  async wrongTry(link: RedirectLinkSnapshot, ip: string | null): Promise<boolean> {
    const key = this.triesKey(link, ip);
    try {
      const [[, n]] = (await this.redis.client.multi().incr(key).expire(key, 60, 'NX').exec()) as Array<[Error | null, number]>;
      return n > WRONG_TRIES_PER_MINUTE;
    } catch (err) {
      this.logger.warn({ err }, 'password try limit unavailable');
      return false;
    }
  }

  private triesKey(link: RedirectLinkSnapshot, ip: string | null): string {
    return this.redis.key('links', 'pw-tries', link.id, ip ?? 'unknown');
  }

  private sign(link: RedirectLinkSnapshot, expires: number): string {
    return createHmac('sha256', this.key).update(`${link.id}.${expires}.${link.passwordHash}`).digest('base64url');
  }
}
