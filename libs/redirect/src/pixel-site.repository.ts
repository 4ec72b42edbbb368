import { Injectable } from '@nestjs/common';
import { RedirectStore } from './redirect-store';

/** The edge's one read of its own besides links: whether an organization's web destinations carry `dl_click`. */
@Injectable()
export class PixelSiteRepository {
  constructor(private readonly store: RedirectStore) {}

  /** On a paid plan (decisions §23) or with a pixel site (§9): web destinations carry `dl_click`. */
  appendsClickId(organizationId: string): Promise<boolean> {
    return this.store.appendsClickId(organizationId);
  }
}
