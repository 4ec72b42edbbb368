import { Injectable } from '@nestjs/common';
import { withTimeout } from '@dl/platform/async';
import { RedisService } from '@dl/platform/redis';
import { RenderedAccountEmail } from './account-email';

/** Delivers an account email (the api provides one over the report mailer). */
export interface AccountMailer {
  send(to: string, mail: RenderedAccountEmail): Promise<void>;
  /** The dashboard's base URL (DASHBOARD_URL), for the links in the emails. */
  readonly dashboardUrl: string;
}

/** Provided by an app that can send mail; without one, account emails are not sent. */
export const ACCOUNT_MAILER = Symbol('ACCOUNT_MAILER');

export const MAIL_INTERVAL_MS = 60_000;

/**
 * At most one email of a kind a minute per address (decisions §20): `SET NX PX` in Redis, shared
 * by every instance. Redis unreachable: mail is not throttled rather than refused.
 */
@Injectable()
export class MailThrottle {
  constructor(private readonly redis: RedisService) {}

  /** Null when this email may go now (and claims the minute), else the seconds to wait. */
  async claim(kind: string, address: string): Promise<number | null> {
    if (!this.redis.isReady) return null;
    const key = this.redis.key('auth', 'mail', kind, address);
    try {
      const ok = await withTimeout(this.redis.client.set(key, '1', 'PX', MAIL_INTERVAL_MS, 'NX'), 250);
      if (ok === 'OK') return null;
      const ttl = await withTimeout(this.redis.client.pttl(key), 250);
      return Math.max(1, Math.ceil(ttl / 1000));
    } catch {
      return null;
    }
  }
}
