import { ShapeAgrees } from '@dl/platform/http';
import { TemplateResponseDto } from './template-response.dto';
import { TemplateRecord } from './templates.repository';

export function toTemplateResponse(t: TemplateRecord) {
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

/** Compile-time agreement of the mapper with its response class (see ShapeAgrees). */
export const TEMPLATE_SHAPES_AGREE: [ShapeAgrees<TemplateResponseDto, ReturnType<typeof toTemplateResponse>>] = [true];
