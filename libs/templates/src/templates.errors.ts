import { BadRequestError, ConflictError, NotFoundError } from '@dl/platform/http';

export class TemplateNotFoundError extends NotFoundError {
  constructor() {
    super('Template not found');
  }
}

export class TemplateSlugInUseError extends ConflictError {
  constructor(slug: string) {
    super(`Template slug '${slug}' is already in use`);
  }
}

export class TemplateInUseError extends ConflictError {
  constructor(count: number) {
    super(`Template is in use by ${count} links`);
  }
}

export class NoTemplateUpdatesError extends BadRequestError {
  constructor() {
    super('No updates provided');
  }
}
