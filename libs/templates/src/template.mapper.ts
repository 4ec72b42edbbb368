import { TemplateResponse } from './template.dto';
import { TemplateRecord } from './templates.repository';

export function toTemplateResponse(t: TemplateRecord): TemplateResponse {
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    description: t.description,
    defaults: (t.defaults && typeof t.defaults === 'object' ? t.defaults : {}) as Record<string, unknown>,
    linkCount: t.linkCount,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
