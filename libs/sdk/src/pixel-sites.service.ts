import { Injectable, Logger } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { isUUID } from 'class-validator';
import { PixelSiteNotFoundError } from './sdk.errors';
import { CreatePixelSiteDto, toPixelSiteResponse } from './pixel-sites.dto';
import { PixelSiteResponseDto } from './pixel-site-response.dto';
import { PixelSitesRepository } from './pixel-sites.repository';
import { CredentialCache } from './credential-cache';
import { generateSiteKey } from './tokens';

/** Management of website pixel sites (Admin). */
@Injectable()
export class PixelSitesService {
  private readonly logger = new Logger(PixelSitesService.name);

  constructor(
    private readonly sites: PixelSitesRepository,
    private readonly cache: CredentialCache,
    private readonly audit: AuditSink,
  ) {}

  async create(organizationId: string, dto: CreatePixelSiteDto): Promise<PixelSiteResponseDto> {
    const site = await this.sites.create(organizationId, { name: dto.name, domain: dto.domain, siteKey: generateSiteKey() });
    this.logger.log({ organizationId, siteId: site.id }, 'pixel site created');
    this.audit.record({ organizationId, action: 'pixel.created', targetId: site.id, changes: { name: dto.name, domain: dto.domain } });
    return toPixelSiteResponse(site);
  }

  async list(organizationId: string): Promise<PixelSiteResponseDto[]> {
    return (await this.sites.list(organizationId)).map(toPixelSiteResponse);
  }

  async remove(organizationId: string, id: string): Promise<{ success: true }> {
    if (!isUUID(id)) throw new PixelSiteNotFoundError();
    const siteKey = await this.sites.remove(organizationId, id);
    if (!siteKey) throw new PixelSiteNotFoundError();
    await this.cache.invalidate('site', siteKey);
    this.logger.log({ organizationId, siteId: id }, 'pixel site deleted');
    this.audit.record({ organizationId, action: 'pixel.deleted', targetId: id });
    return { success: true };
  }
}
