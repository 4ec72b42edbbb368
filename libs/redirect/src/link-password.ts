import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { verifySecret } from '@dl/platform/http';
import { RedisService } from '@dl/platform/redis';
import { PasswordCheckQueue } from './password-check-queue';
import { RedirectLinkSnapshot } from './redirect-link';

/** A proven password skips the form this long (decisions §16). */
export const UNLOCK_TTL_SECONDS = 24 * 3600;
/** Password checks a minute per link and client IP, and per link from every IP, before the 429 page (decisions §22). */
export const TRIES_PER_MINUTE_PER_IP = 10;
export const TRIES_PER_MINUTE_PER_LINK = 100;

/**
 * Reserve-then-check: both counters are read and, when both are under their limits, both
 * incremented in one script, before any hash is computed. A burst of parallel tries cannot pass
 * between a read and a later count (the old read-hash-count order let one burst through).
 * KEYS: link+IP counter, link counter (one hash tag); ARGV: IP limit, link limit, window (s).
 */
const RESERVE = `
local a = tonumber(redis.call('GET', KEYS[1]) or '0')
local b = tonumber(redis.call('GET', KEYS[2]) or '0')
if a >= tonumber(ARGV[1]) or b >= tonumber(ARGV[2]) then return 0 end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
if redis.call('INCR', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
return 1`;

type ReserveCommand = (ipKey: string, linkKey: string, perIp: number, perLink: number, ttl: number) => Promise<number>;

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
  private readonly checks: PasswordCheckQueue;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // Outside production JWT_SECRET may be unset: a key every instance of this deployment shares.
    const secret = config.JWT_SECRET ?? `dev-only:${config.DATABASE_URL}`;
    this.key = createHmac('sha256', secret).update('dl link password cookie v1').digest();
    this.secure = config.SHORT_LINK_BASE_URL.startsWith('https:');
    this.checks = new PasswordCheckQueue(config.LINK_PASSWORD_CHECK_CONCURRENCY, config.LINK_PASSWORD_CHECK_QUEUE);
    this.redis.client.defineCommand('dlPasswordTry', { numberOfKeys: 2, lua: RESERVE });
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

  /**
   * Reserves one password check for this link and client IP; false past either limit (answer the
   * 429 page without hashing). Redis down: not limited by count (the bounded queue still is).
   */
  async reserve(link: RedirectLinkSnapshot, ip: string | null): Promise<boolean> {
    try {
      const command = (this.redis.client as unknown as { dlPasswordTry: ReserveCommand }).dlPasswordTry.bind(this.redis.client);
      const tag = `pw:${link.id}`;
      const allowed = await command(
        this.redis.slotKey(tag, 'links', 'pw-tries', link.id, ip ?? 'unknown'),
        this.redis.slotKey(tag, 'links', 'pw-tries', link.id),
        TRIES_PER_MINUTE_PER_IP,
        TRIES_PER_MINUTE_PER_LINK,
        60,
      );
      return allowed === 1;
    } catch (err) {
      this.logger.warn({ err }, 'password try limit unavailable');
      return true;
    }
  }

  /** Whether `given` is the link's password: true, false, or null when the check queue is full (answer 429). */
  check(link: RedirectLinkSnapshot, given: string): Promise<boolean | null> {
    const stored = link.passwordHash;
    if (!stored) return Promise.resolve(false);
    return this.checks.run(() => verifySecret(given, stored));
  }

  private sign(link: RedirectLinkSnapshot, expires: number): string {
    return createHmac('sha256', this.key).update(`${link.id}.${expires}.${link.passwordHash}`).digest('base64url');
  }
}
