import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dl/platform/db';
import { RedirectLinkSnapshot, toRedirectSnapshot } from './redirect-link';

/**
 * The edge's reads of Postgres (cache misses only). A short code is unique across the
 * whole service and the visitor has no organization yet, so `findByShortCode` is the one
 * read not scoped by organization: it is how the organization is found.
 */
@Injectable()
export class RedirectLinkRepository {
  constructor(private readonly prisma: PrismaService) {}

  async findByShortCode(shortCode: string): Promise<RedirectLinkSnapshot | null> {
    const row = await this.prisma.link.findUnique({
      where: { shortCode },
      select: {
        id: true,
        organizationId: true,
        shortCode: true,
        originalUrl: true,
        iosUrl: true,
        androidUrl: true,
        webFallbackUrl: true,
        utmParameters: true,
        targetingRules: true,
        ogTitle: true,
        ogDescription: true,
        ogImageUrl: true,
        isActive: true,
        expiresAt: true,
      },
    });
    return row ? toRedirectSnapshot(row) : null;
  }

  /** Does the organization have a pixel site (then web destinations carry `dl_click`)? */
  async hasPixelSite(organizationId: string): Promise<boolean> {
    const site = await this.prisma.pixelSite.findFirst({ where: { organizationId }, select: { id: true } });
    return site !== null;
  }
}
