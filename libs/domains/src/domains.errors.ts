import { DomainError, domainError, ValidationError } from '@dl/platform/http';
import { DOMAIN_NAME_MESSAGE } from './domain-name';

export const DOMAIN_NOT_VERIFIED_DEFAULT_MESSAGE = 'Only a verified domain can be the default';

export class DomainNotFoundError extends domainError('DOMAIN_NOT_FOUND', 'Domain not found') {}

/** `Validation error`, `validation.domain = Must be a valid domain name`. */
export class InvalidDomainNameError extends ValidationError {
  constructor() {
    super({ domain: DOMAIN_NAME_MESSAGE }, undefined, 'INVALID_DOMAIN_NAME');
  }
}

/** The name belongs to some organization already (unique across the service). */
export class DomainTakenError extends DomainError {
  constructor(domain: string) {
    super('DOMAIN_TAKEN', `Domain '${domain}' is already in use`);
  }
}

export class DomainLimitError extends domainError('DOMAIN_LIMIT', 'Domain limit reached for your plan') {}

/** A delete while links are on the domain (the contract's wording, for any N). */
export class DomainHasLinksError extends DomainError {
  constructor(links: number) {
    super('DOMAIN_HAS_LINKS', `Domain is in use by ${links} links`);
  }
}

export class DomainNotVerifiedDefaultError extends ValidationError {
  constructor() {
    super({ isDefault: DOMAIN_NOT_VERIFIED_DEFAULT_MESSAGE }, undefined, 'DOMAIN_NOT_VERIFIED_DEFAULT');
  }
}
