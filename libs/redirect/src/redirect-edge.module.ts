import { Module } from '@nestjs/common';
import { ClickCap } from './click-cap';
import { ClickCaptureService } from './click-capture.service';
import { LinkPasswords } from './link-password';
import { RedirectLinkCache } from './redirect-link.cache';
import { PixelFlagCache } from './pixel-flag.cache';
import { PixelSiteRepository } from './pixel-site.repository';
import { RedirectService } from './redirect.service';
import { RedirectStore } from './redirect-store';
import { DomainTable } from './domain-table';
import { TlsNameBudget } from './tls-name-budget';
import { PublicStatsModule } from './public-stats';

/**
 * The edge's services. Postgres reads (link by short code, pixel flag) go through
 * `RedirectStore`'s own small `pg` pool; config, Redis, metrics and the queue come from the
 * app's global modules.
 */
@Module({
  imports: [PublicStatsModule],
  providers: [
    RedirectStore,
    PixelSiteRepository,
    RedirectLinkCache,
    DomainTable,
    PixelFlagCache,
    ClickCaptureService,
    ClickCap,
    LinkPasswords,
    RedirectService,
    TlsNameBudget,
  ],
  exports: [RedirectService, RedirectLinkCache, DomainTable, TlsNameBudget, ClickCaptureService, PixelFlagCache, RedirectStore],
})
export class RedirectEdgeModule {}
