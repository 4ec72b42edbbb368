import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dl/platform/db';

/** The edge's one read of its own: whether an organization has a pixel site. */
@Injectable()
export class PixelSiteRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Does the organization have a pixel site (then web destinations carry `dl_click`)? */
  async hasPixelSite(organizationId: string): Promise<boolean> {
    const site = await this.prisma.pixelSite.findFirst({ where: { organizationId }, select: { id: true } });
    return site !== null;
  }
}
