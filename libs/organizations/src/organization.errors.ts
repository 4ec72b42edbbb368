import { DomainError } from '@dl/platform/http';

/** A slug another organization has (decisions §20). */
export class OrganizationSlugInUseError extends DomainError {
  constructor(slug: string) {
    super('ORGANIZATION_SLUG_IN_USE', `Slug '${slug}' is already in use`);
  }
}
