import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@dl/platform/http';

export class LinkNotFoundError extends NotFoundError {
  constructor(id?: string) {
    super(id ? `Link not found: ${id}` : 'Link not found');
  }
}

export class TemplateNotFoundError extends NotFoundError {
  constructor() {
    super('Template not found');
  }
}

export class ProjectNotFoundError extends NotFoundError {
  constructor() {
    super('Project not found');
  }
}

export class ShortCodeInUseError extends ConflictError {
  constructor(readonly code: string) {
    super(`Short code '${code}' is already in use`);
  }
}

export class LinkLimitExceededError extends ForbiddenError {
  /** `detail` (the import's "how many fit") follows the contract's message after a colon. */
  constructor(detail?: string) {
    super(detail ? `Link limit exceeded for your organization: ${detail}` : 'Link limit exceeded for your organization');
  }
}

export class NoUpdatesError extends BadRequestError {
  constructor() {
    super('No updates provided');
  }
}

export class ShortCodeExhaustedError extends BadRequestError {
  constructor() {
    super('Validation error: could not generate a unique short code');
  }
}
