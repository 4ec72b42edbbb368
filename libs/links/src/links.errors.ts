import { DomainError, domainError, domainErrorOf } from '@dl/platform/http';

/*
 * Links and the organization's resources a link refers to. Projects, templates, analytics and
 * webhooks throw these same classes (one class per code), so a missing project answers
 * `Project not found` from every route that names one.
 */

export class LinkNotFoundError extends domainErrorOf('LINK_NOT_FOUND', (id?: string) => id ? `Link not found: ${id}` : 'Link not found') {}

export class TemplateNotFoundError extends domainError('TEMPLATE_NOT_FOUND', 'Template not found') {}

export class ProjectNotFoundError extends domainError('PROJECT_NOT_FOUND', 'Project not found') {}

export class ShortCodeInUseError extends DomainError {
  constructor(readonly shortCode: string) {
    super('SHORT_CODE_IN_USE', `Short code '${shortCode}' is already in use`);
  }
}

export class LinkLimitExceededError extends DomainError {
  /** `detail` (the import's "how many fit") follows the contract's message after a colon. */
  constructor(detail?: string) {
    super('LINK_LIMIT_EXCEEDED', detail ? `Link limit exceeded for your organization: ${detail}` : 'Link limit exceeded for your organization');
  }
}

export class ShortCodeExhaustedError extends domainError('SHORT_CODE_EXHAUSTED', 'Validation error: could not generate a unique short code') {}

/** A FREE organization in its first day past NEW_ORG_LINK_LIMIT links (decisions §22). */
export class NewOrganizationLinkLimitError extends domainErrorOf('NEW_ORG_LINK_LIMIT', (limit: number) => `New organizations can create at most ${limit} links in their first day`) {}
