import { Module } from '@nestjs/common';
import { LinkLookupModule } from '@dl/links';
import { ClickCaptureService } from './click-capture.service';
import { RedirectLinkCache } from './redirect-link.cache';
import { PixelFlagCache } from './pixel-flag.cache';
import { PixelSiteRepository } from './pixel-site.repository';
import { RedirectService } from './redirect.service';

/** The edge's services. Link reads come from `@dl/links` (LinkLookup); config, Prisma, Redis, metrics and the queue from the app's global modules. */
@Module({
  imports: [LinkLookupModule],
  providers: [PixelSiteRepository, RedirectLinkCache, PixelFlagCache, ClickCaptureService, RedirectService],
  exports: [RedirectService, RedirectLinkCache, ClickCaptureService, PixelFlagCache],
})
export class RedirectEdgeModule {}
