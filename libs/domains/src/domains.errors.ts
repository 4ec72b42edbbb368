import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '@dl/platform/http';
import { DOMAIN_NAME_MESSAGE } from './domain-name';

export const DOMAIN_NOT_VERIFIED_DEFAULT_MESSAGE = 'Only a verified domain can be the default';

export class DomainNotFoundError extends NotFoundError {
  constructor() {
    super('Domain not found');
  }
}

/** 400 `Validation error`, `validation.domain = Must be a valid domain name`. */
export class InvalidDomainNameError extends ValidationError {
  constructor() {
    super({ domain: DOMAIN_NAME_MESSAGE });
  }
}

/** 409: the name belongs to some organization already (unique across the service). */
export class DomainTakenError extends ConflictError {
  constructor(domain: string) {
    super(`Domain '${domain}' is already in use`);
  }
}

export class DomainLimitError extends ForbiddenError {
  constructor() {
    super('Domain limit reached for your plan');
  }
}

/** 409 on delete while links are on the domain (the contract's wording, for any N). */
export class DomainHasLinksError extends ConflictError {
  constructor(links: number) {
    super(`Domain is in use by ${links} links`);
  }
}

export class DomainNotVerifiedDefaultError extends ValidationError {
  constructor() {
    super({ isDefault: DOMAIN_NOT_VERIFIED_DEFAULT_MESSAGE });
  }
}

export class NoDomainUpdatesError extends BadRequestError {
  constructor() {
    super('No updates provided');
  }
}
