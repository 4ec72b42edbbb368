import { Body } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint, SuccessResponseDto, UuidParam } from '@dl/platform/http';
import { CreateTemplateDto, TemplateResponseDto, TemplatesService, UpdateTemplateDto } from '@dl/templates';

const BY_ID_ERRORS = { 400: 'Validation error', 404: 'Template not found' } as const;
const SLUG_TAKEN = 'Template slug already in use';

@ApiController('api/templates', 'templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Endpoint.post({
    access: Auth(Permissions.templatesWrite),
    summary: 'Create a template (defaults for new links)',
    status: 201,
    response: TemplateResponseDto,
    errors: { 400: 'Validation error', 409: SLUG_TAKEN },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateTemplateDto): Promise<TemplateResponseDto> {
    return this.templates.create(principal.organizationId, dto);
  }

  @Endpoint.get({ access: Auth(Permissions.read), summary: 'List templates with their link counts', response: [TemplateResponseDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<TemplateResponseDto[]> {
    return this.templates.list(principal.organizationId);
  }

  @Endpoint.get(':id', { access: Auth(Permissions.read), summary: 'Get a template', response: TemplateResponseDto, errors: BY_ID_ERRORS })
  get(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<TemplateResponseDto> {
    return this.templates.get(principal.organizationId, id);
  }

  @Endpoint.put(':id', {
    access: Auth(Permissions.templatesWrite),
    summary: 'Update a template (existing links keep their values)',
    response: TemplateResponseDto,
    errors: { ...BY_ID_ERRORS, 409: SLUG_TAKEN },
  })
  update(@CurrentPrincipal() principal: Principal, @UuidParam() id: string, @Body() dto: UpdateTemplateDto): Promise<TemplateResponseDto> {
    return this.templates.update(principal.organizationId, id, dto);
  }

  @Endpoint.delete(':id', { access: Auth(Permissions.templatesDelete), summary: 'Delete a template', response: SuccessResponseDto, errors: { ...BY_ID_ERRORS, 409: 'Template is in use by links' } })
  delete(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<SuccessResponseDto> {
    return this.templates.delete(principal.organizationId, id);
  }
}
