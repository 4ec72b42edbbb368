import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { RedisService } from '@dl/platform/redis';
import { hashChallengeToken, newChallengeToken } from './totp';

/** A challenge lives 5 minutes and dies after 5 wrong codes (decisions §20). */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
export const CHALLENGE_MAX_FAILURES = 5;

export interface PendingLogin {
  userId: string;
  organizationId: string;
  /** A digest of the password hash the login was checked against (`passwordDigest`). */
  password: string;
}

/**
 * What a challenge remembers of the password it stands for: a changed, reset or claimed
 * password makes every challenge started before it void.
 */
export const passwordDigest = (passwordHash: string): string => createHash('sha256').update(passwordHash).digest('base64url').slice(0, 22);

/**
 * The second step of a login: a `dlc_` token standing for "this user gave the right password
 * for this organization" (while that password stands). Kept in Redis under the token's SHA-256 (shared by every api
 * instance, gone by itself after 5 minutes); single use: the step that succeeds deletes it,
 * and only the request whose DEL removed it gets a session.
 */
@Injectable()
export class TwoFactorChallenges {
  constructor(private readonly redis: RedisService) {}

  private key(hash: string): string {
    return this.redis.key('auth', '2fa-challenge', hash);
  }

  async create(login: PendingLogin): Promise<string> {
    const token = newChallengeToken();
    const key = this.key(hashChallengeToken(token)!);
    await this.redis.client
      .multi()
      .hset(key, { u: login.userId, o: login.organizationId, p: login.password, f: 0 })
      .expire(key, CHALLENGE_TTL_SECONDS)
      .exec();
    return token;
  }

  /** The pending login of a live challenge, or null (malformed, unknown, used, expired, or too many failures). */
  async find(token: string): Promise<PendingLogin | null> {
    const hash = hashChallengeToken(token);
    if (!hash) return null;
    const [u, o, p, f] = await this.redis.client.hmget(this.key(hash), 'u', 'o', 'p', 'f');
    if (!u || !o || !p || Number(f) >= CHALLENGE_MAX_FAILURES) return null;
    return { userId: u, organizationId: o, password: p };
  }

  /** Counts a wrong code; the fifth ends the challenge. */
  async failed(token: string): Promise<void> {
    const key = this.key(hashChallengeToken(token)!);
    // EXPIRE NX: a challenge consumed meanwhile leaves a stub that still expires.
    const replies = await this.redis.client.multi().hincrby(key, 'f', 1).expire(key, CHALLENGE_TTL_SECONDS, 'NX').exec();
    if (Number(replies?.[0]?.[1]) >= CHALLENGE_MAX_FAILURES) await this.redis.client.del(key);
  }

  /** Ends the challenge: true for the one caller that ended it. */
  async consume(token: string): Promise<boolean> {
    const hash = hashChallengeToken(token);
    if (!hash) return false;
    return (await this.redis.client.del(this.key(hash))) === 1;
  }
}
