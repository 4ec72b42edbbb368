import { Injectable } from '@nestjs/common';
import { RedirectStore } from './redirect-store';

/** The edge's one read of its own besides links: whether an organization has a pixel site. */
@Injectable()
export class PixelSiteRepository {
  constructor(private readonly store: RedirectStore) {}

  /** Does the organization have a pixel site (then web destinations carry `dl_click`)? */
  hasPixelSite(organizationId: string): Promise<boolean> {
    return this.store.hasPixelSite(organizationId);
  }
}
