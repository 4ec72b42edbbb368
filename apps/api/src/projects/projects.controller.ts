import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { CreateProjectDto, ProjectListItem, ProjectResponse, ProjectsService, UpdateProjectDto } from '@dl/projects';
import { UuidParamPipe } from '../links/uuid-param.pipe';

@ApiTags('projects')
@Controller('api/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @HttpCode(201)
  @Auth(Permissions.projectsWrite)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateProjectDto): Promise<ProjectResponse> {
    return this.projects.create(principal, dto);
  }

  @Get()
  @Auth(Permissions.read)
  list(@CurrentPrincipal() principal: Principal): Promise<ProjectListItem[]> {
    return this.projects.list(principal.organizationId);
  }

  @Get(':id')
  @Auth(Permissions.read)
  get(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<ProjectResponse> {
    return this.projects.get(principal.organizationId, id);
  }

  @Put(':id')
  @Auth(Permissions.projectsWrite)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Body() dto: UpdateProjectDto,
  ): Promise<ProjectResponse> {
    return this.projects.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @Auth(Permissions.projectsDelete)
  delete(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<{ success: true }> {
    return this.projects.delete(principal.organizationId, id);
  }
}
