import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { Endpoint, SuccessResponseDto, UuidParam } from '@dl/platform/http';
import { CreateTemplateDto, TemplateResponseDto, TemplatesService, UpdateTemplateDto } from '@dl/templates';

const BY_ID_ERRORS = { 400: 'Validation error', 404: 'Template not found' } as const;
const SLUG_TAKEN = 'Template slug already in use';

@ApiTags('templates')
@Controller('api/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Post()
  @Auth(Permissions.templatesWrite)
  @Endpoint({
    summary: 'Create a template (defaults for new links)',
    status: 201,
    response: TemplateResponseDto,
    errors: { 400: 'Validation error', 409: SLUG_TAKEN },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateTemplateDto): Promise<TemplateResponseDto> {
    return this.templates.create(principal.organizationId, dto);
  }

  @Get()
  @Auth(Permissions.read)
  @Endpoint({ summary: 'List templates with their link counts', response: [TemplateResponseDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<TemplateResponseDto[]> {
    return this.templates.list(principal.organizationId);
  }

  @Get(':id')
  @Auth(Permissions.read)
  @Endpoint({ summary: 'Get a template', response: TemplateResponseDto, errors: BY_ID_ERRORS })
  get(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<TemplateResponseDto> {
    return this.templates.get(principal.organizationId, id);
  }

  @Put(':id')
  @Auth(Permissions.templatesWrite)
  @Endpoint({
    summary: 'Update a template (existing links keep their values)',
    response: TemplateResponseDto,
    errors: { ...BY_ID_ERRORS, 409: SLUG_TAKEN },
  })
  update(@CurrentPrincipal() principal: Principal, @UuidParam() id: string, @Body() dto: UpdateTemplateDto): Promise<TemplateResponseDto> {
    return this.templates.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @Auth(Permissions.templatesDelete)
  @Endpoint({ summary: 'Delete a template', response: SuccessResponseDto, errors: { ...BY_ID_ERRORS, 409: 'Template is in use by links' } })
  delete(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<SuccessResponseDto> {
    return this.templates.delete(principal.organizationId, id);
  }
}
