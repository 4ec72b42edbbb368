import { AuditSink } from '@dl/audit';
import { Injectable } from '@nestjs/common';
import { destinationsOf, suppliedFields, templateDefaultsFromFields, TemplateNotFoundError } from '@dl/links';
import { SafetyService } from '@dl/safety';
import { NoUpdatesError } from '@dl/platform/http';
import { slugify } from '@dl/platform/validation';
import { CreateTemplateDto, TemplateDefaultsDto, UpdateTemplateDto } from './template.dto';
import { TemplateResponseDto } from './template-response.dto';
import { toTemplateResponse } from './template.mapper';
import { TemplatesRepository, TemplateWrite } from './templates.repository';

function storedDefaults(dto: TemplateDefaultsDto): Record<string, unknown> {
  const defaults = templateDefaultsFromFields(suppliedFields(dto), dto.expiresInDays) as Record<string, unknown>;
  // The domain new links go on: checked (verified, of the organization) when a link is created.
  if (typeof dto.domain === 'string') defaults.domain = dto.domain.toLowerCase();
  return defaults;
}

@Injectable()
export class TemplatesService {
  constructor(
    private readonly repo: TemplatesRepository,
    private readonly safety: SafetyService,
    private readonly audit: AuditSink,
  ) {}

  /** A default destination is screened like a link's own (decisions §22): blocked → 400 naming `defaults.<field>`. */
  private async screenDefaults(defaults: Record<string, unknown>): Promise<void> {
    await this.safety.refuseBlocked(destinationsOf(defaults).map(([field, url]): [string, string] => [`defaults.${field}`, url]));
  }

  async list(organizationId: string): Promise<TemplateResponseDto[]> {
    return (await this.repo.list(organizationId)).map(toTemplateResponse);
  }

  async get(organizationId: string, id: string): Promise<TemplateResponseDto> {
    const t = await this.repo.find(organizationId, id);
    if (!t) throw new TemplateNotFoundError();
    return toTemplateResponse(t);
  }

  async create(organizationId: string, dto: CreateTemplateDto): Promise<TemplateResponseDto> {
    const defaults = dto.defaults ? storedDefaults(dto.defaults) : {};
    await this.screenDefaults(defaults);
    const t = await this.repo.create(organizationId, {
      name: dto.name.trim(),
      slug: dto.slug ?? (slugify(dto.name, 64) || 'template'),
      description: dto.description ?? null,
      defaults,
    });
    this.audit.record({ organizationId, action: 'template.created', targetId: t.id, changes: { name: t.name, slug: t.slug } });
    return toTemplateResponse(t);
  }

  async update(organizationId: string, id: string, dto: UpdateTemplateDto | undefined): Promise<TemplateResponseDto> {
    const data: TemplateWrite = {};
    if (dto?.name !== undefined) data.name = dto.name.trim();
    if (dto?.slug !== undefined) data.slug = dto.slug;
    if (dto?.description !== undefined) data.description = dto.description;
    if (dto?.defaults !== undefined) data.defaults = dto.defaults ? storedDefaults(dto.defaults) : {};
    if (!Object.keys(data).length) throw new NoUpdatesError();
    if (data.defaults) await this.screenDefaults(data.defaults as Record<string, unknown>);
    const t = await this.repo.update(organizationId, id, data);
    if (!t) throw new TemplateNotFoundError();
    this.audit.record({ organizationId, action: 'template.updated', targetId: id, changes: { ...data } });
    return toTemplateResponse(t);
  }

  async delete(organizationId: string, id: string): Promise<{ success: true }> {
    if (!(await this.repo.delete(organizationId, id))) throw new TemplateNotFoundError();
    this.audit.record({ organizationId, action: 'template.deleted', targetId: id });
    return { success: true };
  }
}
