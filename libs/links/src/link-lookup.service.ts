import { Injectable } from '@nestjs/common';
import { LinksRepository } from './links.repository';
import { LinkNotFoundError } from './links.errors';
import { LinkRecord } from './link.types';

/** Reads other domains need (analytics); every one takes the organization id. */
@Injectable()
export class LinkLookup {
  constructor(private readonly repo: LinksRepository) {}

  /** The organization's link or 404 `Link not found` (analytics endpoints). */
  async getLinkForOrganization(organizationId: string, id: string): Promise<LinkRecord> {
    const link = await this.repo.findById(organizationId, id);
    if (!link) throw new LinkNotFoundError();
    return link;
  }
}
