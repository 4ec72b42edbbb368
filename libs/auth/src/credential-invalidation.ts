import { Injectable } from '@nestjs/common';
import { apiKeyCacheKey, sessionCacheKey } from './authenticator.service';
import { PrincipalCache } from './principal-cache';

export const CREDENTIAL_INVALIDATION = Symbol('CREDENTIAL_INVALIDATION');

/** What identity changes call so that every api instance stops honouring stale credentials. */
export interface CredentialInvalidation {
  revokedKeys(keyHashes: string[]): Promise<void>;
  organizationChanged(organizationId: string): Promise<void>;
  /** Dashboard sessions ended: their access tokens stop working (decisions §20). */
  revokedSessions(sessions: Array<{ id: string; organizationId: string; userId: string }>): Promise<void>;
}

@Injectable()
export class CachedCredentialInvalidation implements CredentialInvalidation {
  constructor(private readonly cache: PrincipalCache) {}

  revokedKeys(keyHashes: string[]): Promise<void> {
    return this.cache.invalidateKeys(keyHashes.map(apiKeyCacheKey));
  }

  organizationChanged(organizationId: string): Promise<void> {
    return this.cache.invalidateOrganization(organizationId);
  }

  revokedSessions(sessions: Array<{ id: string; organizationId: string; userId: string }>): Promise<void> {
    return this.cache.invalidateKeys(sessions.map((s) => sessionCacheKey(s.organizationId, s.userId, s.id)));
  }
}

/** For seeding brand-new organizations, where nothing can be cached yet. */
export const NO_CACHED_CREDENTIALS: CredentialInvalidation = {
  revokedKeys: async () => undefined,
  organizationChanged: async () => undefined,
  revokedSessions: async () => undefined,
};
