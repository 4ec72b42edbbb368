import { Module } from '@nestjs/common';
import { ClickCaptureService } from './click-capture.service';
import { LinkLookupService } from './link-lookup.service';
import { PixelFlagCache } from './pixel-flag.cache';
import { RedirectLinkRepository } from './redirect-link.repository';
import { RedirectService } from './redirect.service';

/** The edge's services (config, Prisma, Redis, metrics and the queue come from the app's global modules). */
@Module({
  providers: [RedirectLinkRepository, LinkLookupService, PixelFlagCache, ClickCaptureService, RedirectService],
  exports: [RedirectService, LinkLookupService, ClickCaptureService, PixelFlagCache],
})
export class RedirectEdgeModule {}
