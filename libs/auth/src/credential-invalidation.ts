import { Injectable } from '@nestjs/common';
import { apiKeyCacheKey } from './authenticator.service';
import { PrincipalCache } from './principal-cache';

export const CREDENTIAL_INVALIDATION = Symbol('CREDENTIAL_INVALIDATION');

/** What identity changes call so that every api instance stops honouring stale credentials. */
export interface CredentialInvalidation {
  revokedKeys(keyHashes: string[]): Promise<void>;
  organizationChanged(organizationId: string): Promise<void>;
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
}

/** For seeding brand-new organizations, where nothing can be cached yet. */
export const NO_CACHED_CREDENTIALS: CredentialInvalidation = {
  revokedKeys: async () => undefined,
  organizationChanged: async () => undefined,
};
