import { Injectable } from '@nestjs/common';
import { RedisService } from '@dl/platform/redis';

export type CredentialKind = 'app' | 'site';

/** How long an ingest instance trusts its in-process copy: a revocation is honoured within this time. */
export const LOCAL_CREDENTIAL_TTL_MS = 2000;
/** How long Redis keeps a resolved credential (deleted at once on revocation). */
export const SHARED_CREDENTIAL_TTL_SECONDS = 300;

/**
 * Resolved SDK/pixel credentials shared by every ingest instance through Redis.
 * The api deletes an entry when an app is revoked or a pixel site deleted.
 */
@Injectable()
export class CredentialCache {
  constructor(private readonly redis: RedisService) {}

  key(kind: CredentialKind, id: string): string {
    return this.redis.key('sdk', 'cred', kind, id);
  }

  async get<T>(kind: CredentialKind, id: string): Promise<T | null> {
    const raw = await this.redis.client.get(this.key(kind, id));
    return raw ? (JSON.parse(raw) as T) : null;
  }

  async set(kind: CredentialKind, id: string, value: unknown): Promise<void> {
    await this.redis.client.set(this.key(kind, id), JSON.stringify(value), 'EX', SHARED_CREDENTIAL_TTL_SECONDS);
  }

  async invalidate(kind: CredentialKind, id: string): Promise<void> {
    await this.redis.client.del(this.key(kind, id));
  }
}
