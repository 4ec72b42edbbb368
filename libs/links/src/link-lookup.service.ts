import { Injectable } from '@nestjs/common';
import { recordToRedirect } from './link-columns';
import { RedirectLink } from './link.types';
import { LinksRepository } from './links.repository';
import { LinkNotFoundError } from './links.errors';
import { LinkRecord } from './link.types';

/**
 * Reads other domains need. `findByShortCode` serves the redirect's cache misses
 * (the short code space is global, so it is not tenant-scoped); everything else
 * takes the organization id.
 */
@Injectable()
export class LinkLookup {
  constructor(private readonly repo: LinksRepository) {}

  async findByShortCode(shortCode: string): Promise<RedirectLink | null> {
    const link = await this.repo.findByShortCode(shortCode);
    return link ? recordToRedirect(link) : null;
  }

  /** The organization's link or 404 `Link not found` (analytics endpoints). */
  async getLinkForOrganization(organizationId: string, id: string): Promise<LinkRecord> {
    const link = await this.repo.findById(organizationId, id);
    if (!link) throw new LinkNotFoundError();
    return link;
  }
}
