import { Injectable, Logger } from '@nestjs/common';
import { infraDependency, reportOutage } from '@dl/platform/observability';
import { PixelSiteRepository } from './pixel-site.repository';
import { TtlCache } from './ttl-cache';

/** How long an organization's "web destinations carry dl_click" flag is trusted before a background refresh. */
export const PIXEL_FLAG_TTL_MS = 30_000;

/**
 * Whether an organization's web destinations carry `dl_click`: it is on a paid plan
 * (decisions §23) or has a pixel site (§9). Stale-while-revalidate: only an organization's very first redirect in this
 * process waits for Postgres; later ones use the cached flag and refresh it in the background.
 */
@Injectable()
export class PixelFlagCache {
  private readonly logger = new Logger('PixelFlag');
  private readonly flags = new TtlCache<boolean>(100_000);
  private readonly refreshing = new Map<string, Promise<boolean>>();

  constructor(private readonly repository: PixelSiteRepository) {}

  appendsClickId(organizationId: string): boolean | Promise<boolean> {
    const entry = this.flags.peek(organizationId);
    if (entry?.fresh) return entry.value;
    const pending = this.refresh(organizationId);
    return entry ? entry.value : pending;
  }

  /** Forgets every flag (tests; a pixel site or plan change shows within the TTL otherwise). */
  clear(): void {
    this.flags.clear();
  }

  private refresh(organizationId: string): Promise<boolean> {
    let pending = this.refreshing.get(organizationId);
    if (pending) return pending;
    pending = this.repository
      .appendsClickId(organizationId)
      .then((flag) => {
        this.flags.set(organizationId, flag, PIXEL_FLAG_TTL_MS);
        return flag;
      })
      .catch((err: unknown) => {
        // Postgres unreachable: keep the last known flag (or none) rather than failing the redirect.
        // One warning per 30 s while Postgres is down, not one per redirect.
        const dependency = infraDependency(err, 'postgres');
        if (dependency) reportOutage(dependency, err, 'dl_click flag lookup');
        else this.logger.warn({ err }, 'dl_click flag lookup failed');
        return this.flags.peek(organizationId)?.value ?? false;
      })
      .finally(() => this.refreshing.delete(organizationId));
    this.refreshing.set(organizationId, pending);
    return pending;
  }
}
