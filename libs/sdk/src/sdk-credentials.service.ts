import { Injectable, Logger } from '@nestjs/common';
import { AppCredential, AppsRepository } from './apps.repository';
import { CredentialCache, CredentialKind, LOCAL_CREDENTIAL_TTL_MS } from './credential-cache';
import { PixelSitesRepository, SiteCredential } from './pixel-sites.repository';
import { APP_TOKEN_PATTERN, hashToken, SITE_KEY_PATTERN } from './tokens';

interface LocalEntry<T> {
  value: T | null;
  expires: number;
}

const MAX_LOCAL_ENTRIES = 10_000;

/**
 * Resolves SDK app tokens and pixel site keys on the ingest hot path: an in-process map
 * (2 s, so a revocation is honoured within 2 s), then Redis (shared by every instance,
 * deleted on revocation), then Postgres (a read, never a write).
 */
@Injectable()
export class SdkCredentialsService {
  private readonly logger = new Logger(SdkCredentialsService.name);
  private readonly local = new Map<string, LocalEntry<unknown>>();

  constructor(
    private readonly apps: AppsRepository,
    private readonly sites: PixelSitesRepository,
    private readonly cache: CredentialCache,
  ) {}

  /** The app of a `dla_` token, or null (malformed, unknown or revoked). */
  async resolveAppToken(token: string): Promise<AppCredential | null> {
    if (!APP_TOKEN_PATTERN.test(token)) return null;
    const hash = hashToken(token);
    return this.resolve('app', hash, () => this.apps.findCredentialByTokenHash(hash));
  }

  /** The pixel site of a `dlp_` key, or null. */
  async resolveSiteKey(siteKey: string): Promise<SiteCredential | null> {
    if (!SITE_KEY_PATTERN.test(siteKey)) return null;
    const site = await this.resolve('site', siteKey, () => this.sites.findCredentialBySiteKey(siteKey));
    // An entry cached before sites carried their domain: read it afresh.
    if (site && typeof site.domain !== 'string') return this.sites.findCredentialBySiteKey(siteKey);
    return site;
  }

  private async resolve<T>(kind: CredentialKind, id: string, load: () => Promise<T | null>): Promise<T | null> {
    const localKey = `${kind}:${id}`;
    const now = Date.now();
    const hit = this.local.get(localKey) as LocalEntry<T> | undefined;
    if (hit && hit.expires > now) return hit.value;

    let value: T | null = null;
    try {
      value = await this.cache.get<T>(kind, id);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'credential cache unavailable, reading Postgres');
    }
    if (!value) {
      value = await load();
      if (value) await this.cache.set(kind, id, value).catch(() => undefined);
    }
    if (this.local.size >= MAX_LOCAL_ENTRIES) this.local.clear();
    this.local.set(localKey, { value, expires: now + LOCAL_CREDENTIAL_TTL_MS });
    return value;
  }
}
