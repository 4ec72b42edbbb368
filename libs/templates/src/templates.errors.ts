import { DomainError } from '@dl/platform/http';

export class TemplateSlugInUseError extends DomainError {
  constructor(slug: string) {
    super('TEMPLATE_SLUG_IN_USE', `Template slug '${slug}' is already in use`);
  }
}

export class TemplateInUseError extends DomainError {
  constructor(count: number) {
    super('TEMPLATE_IN_USE', `Template is in use by ${count} links`);
  }
}
