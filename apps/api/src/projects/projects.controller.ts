import { Body } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint, SuccessResponseDto, UuidParam } from '@dl/platform/http';
import { CreateProjectDto, ProjectListItemDto, ProjectResponseDto, ProjectsService, UpdateProjectDto } from '@dl/projects';

const BY_ID_ERRORS = { 400: 'Validation error', 404: 'Project not found' } as const;

@ApiController('api/projects', 'projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Endpoint.post({ access: Auth(Permissions.projectsWrite), summary: 'Create a project', status: 201, response: ProjectResponseDto, errors: { 400: 'Validation error' } })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateProjectDto): Promise<ProjectResponseDto> {
    return this.projects.create(principal, dto);
  }

  @Endpoint.get({ access: Auth(Permissions.read), summary: 'List projects', response: [ProjectListItemDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<ProjectListItemDto[]> {
    return this.projects.list(principal.organizationId);
  }

  @Endpoint.get(':id', { access: Auth(Permissions.read), summary: 'Get a project', response: ProjectResponseDto, errors: BY_ID_ERRORS })
  get(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<ProjectResponseDto> {
    return this.projects.get(principal.organizationId, id);
  }

  @Endpoint.put(':id', { access: Auth(Permissions.projectsWrite), summary: 'Update a project', response: ProjectResponseDto, errors: BY_ID_ERRORS })
  update(@CurrentPrincipal() principal: Principal, @UuidParam() id: string, @Body() dto: UpdateProjectDto): Promise<ProjectResponseDto> {
    return this.projects.update(principal.organizationId, id, dto);
  }

  @Endpoint.delete(':id', { access: Auth(Permissions.projectsDelete), summary: 'Delete a project (its links stay, without a project)', response: SuccessResponseDto, errors: BY_ID_ERRORS })
  delete(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<SuccessResponseDto> {
    return this.projects.delete(principal.organizationId, id);
  }
}
