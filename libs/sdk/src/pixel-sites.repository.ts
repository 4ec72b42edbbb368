import { Injectable } from '@nestjs/common';
import { PixelSite, PrismaService } from '@dl/platform/db';

export interface SiteCredential {
  siteId: string;
  organizationId: string;
  /** The site's domain (lower case): pixel calls from a browser must come from it or a subdomain. */
  domain: string;
}

@Injectable()
export class PixelSitesRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(organizationId: string, data: { name: string; domain: string; siteKey: string }): Promise<PixelSite> {
    return this.prisma.pixelSite.create({ data: { ...data, organizationId } });
  }

  list(organizationId: string): Promise<PixelSite[]> {
    return this.prisma.pixelSite.findMany({ where: { organizationId }, orderBy: { createdAt: 'desc' } });
  }

  /** Deletes the site (its events stay for reports); returns its key, or null when not found. */
  async remove(organizationId: string, id: string): Promise<string | null> {
    const site = await this.prisma.pixelSite.findFirst({ where: { id, organizationId }, select: { siteKey: true } });
    if (!site) return null;
    const { count } = await this.prisma.pixelSite.deleteMany({ where: { id, organizationId } });
    return count ? site.siteKey : null;
  }

  /** Authentication lookup of a pixel call (the organization is what it finds). */
  async findCredentialBySiteKey(siteKey: string): Promise<SiteCredential | null> {
    const site = await this.prisma.pixelSite.findUnique({
      where: { siteKey },
      select: { id: true, organizationId: true, domain: true },
    });
    return site ? { siteId: site.id, organizationId: site.organizationId, domain: site.domain.toLowerCase() } : null;
  }
}
