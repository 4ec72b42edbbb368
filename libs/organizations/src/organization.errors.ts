import { domainErrorOf } from '@dl/platform/http';

/** A slug another organization has (decisions §20). */
export class OrganizationSlugInUseError extends domainErrorOf('ORGANIZATION_SLUG_IN_USE', (slug: string) => `Slug '${slug}' is already in use`) {}
