import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { Endpoint, SuccessResponseDto, UuidParam } from '@dl/platform/http';
import { CreateProjectDto, ProjectListItemDto, ProjectResponseDto, ProjectsService, UpdateProjectDto } from '@dl/projects';

const BY_ID_ERRORS = { 400: 'Validation error', 404: 'Project not found' } as const;

@ApiTags('projects')
@Controller('api/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @Auth(Permissions.projectsWrite)
  @Endpoint({ summary: 'Create a project', status: 201, response: ProjectResponseDto, errors: { 400: 'Validation error' } })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateProjectDto): Promise<ProjectResponseDto> {
    return this.projects.create(principal, dto);
  }

  @Get()
  @Auth(Permissions.read)
  @Endpoint({ summary: 'List projects', response: [ProjectListItemDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<ProjectListItemDto[]> {
    return this.projects.list(principal.organizationId);
  }

  @Get(':id')
  @Auth(Permissions.read)
  @Endpoint({ summary: 'Get a project', response: ProjectResponseDto, errors: BY_ID_ERRORS })
  get(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<ProjectResponseDto> {
    return this.projects.get(principal.organizationId, id);
  }

  @Put(':id')
  @Auth(Permissions.projectsWrite)
  @Endpoint({ summary: 'Update a project', response: ProjectResponseDto, errors: BY_ID_ERRORS })
  update(@CurrentPrincipal() principal: Principal, @UuidParam() id: string, @Body() dto: UpdateProjectDto): Promise<ProjectResponseDto> {
    return this.projects.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @Auth(Permissions.projectsDelete)
  @Endpoint({ summary: 'Delete a project (its links stay, without a project)', response: SuccessResponseDto, errors: BY_ID_ERRORS })
  delete(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<SuccessResponseDto> {
    return this.projects.delete(principal.organizationId, id);
  }
}
