import { domainErrorOf } from '@dl/platform/http';

export class TemplateSlugInUseError extends domainErrorOf('TEMPLATE_SLUG_IN_USE', (slug: string) => `Template slug '${slug}' is already in use`) {}

export class TemplateInUseError extends domainErrorOf('TEMPLATE_IN_USE', (count: number) => `Template is in use by ${count} links`) {}
