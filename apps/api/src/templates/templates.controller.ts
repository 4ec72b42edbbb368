import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { CreateTemplateDto, TemplateResponse, TemplatesService, UpdateTemplateDto } from '@dl/templates';
import { UuidParamPipe } from '../links/uuid-param.pipe';
import { SuccessResponseDto } from '@dl/platform/http';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { TemplateResponseDoc } from './templates.response-doc';

@ApiTags('templates')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Post()
  @ApiOperation({ summary: 'Create a template (defaults for new links)' })
  @HttpCode(201)
  @Auth(Permissions.templatesWrite)
  @ApiCreatedResponse({ type: TemplateResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'Template slug already in use' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateTemplateDto): Promise<TemplateResponse> {
    return this.templates.create(principal.organizationId, dto);
  }

  @Get()
  @ApiOperation({ summary: 'List templates with their link counts' })
  @Auth(Permissions.read)
  @ApiOkResponse({ type: [TemplateResponseDoc] })
  list(@CurrentPrincipal() principal: Principal): Promise<TemplateResponse[]> {
    return this.templates.list(principal.organizationId);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a template' })
  @Auth(Permissions.read)
  @ApiOkResponse({ type: TemplateResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Template not found' })
  get(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<TemplateResponse> {
    return this.templates.get(principal.organizationId, id);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a template (existing links keep their values)' })
  @Auth(Permissions.templatesWrite)
  @ApiOkResponse({ type: TemplateResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Template not found' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'Template slug already in use' })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Body() dto: UpdateTemplateDto,
  ): Promise<TemplateResponse> {
    return this.templates.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a template' })
  @Auth(Permissions.templatesDelete)
  @ApiOkResponse({ type: SuccessResponseDto })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Template not found' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'Template is in use by links' })
  delete(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<{ success: true }> {
    return this.templates.delete(principal.organizationId, id);
  }
}
