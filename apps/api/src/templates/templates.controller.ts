import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { CreateTemplateDto, TemplateResponse, TemplatesService, UpdateTemplateDto } from '@dl/templates';
import { UuidParamPipe } from '../links/uuid-param.pipe';

@ApiTags('templates')
@Controller('api/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Post()
  @HttpCode(201)
  @Auth(Permissions.templatesWrite)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateTemplateDto): Promise<TemplateResponse> {
    return this.templates.create(principal.organizationId, dto);
  }

  @Get()
  @Auth(Permissions.read)
  list(@CurrentPrincipal() principal: Principal): Promise<TemplateResponse[]> {
    return this.templates.list(principal.organizationId);
  }

  @Get(':id')
  @Auth(Permissions.read)
  get(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<TemplateResponse> {
    return this.templates.get(principal.organizationId, id);
  }

  @Put(':id')
  @Auth(Permissions.templatesWrite)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Body() dto: UpdateTemplateDto,
  ): Promise<TemplateResponse> {
    return this.templates.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @Auth(Permissions.templatesDelete)
  delete(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<{ success: true }> {
    return this.templates.delete(principal.organizationId, id);
  }
}
