import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
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
import { CreateProjectDto, ProjectListItem, ProjectResponse, ProjectsService, UpdateProjectDto } from '@dl/projects';
import { UuidParamPipe } from '../links/uuid-param.pipe';
import { SuccessResponseDoc } from '../openapi/success.doc';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { ProjectListItemDoc, ProjectResponseDoc } from './projects.response-doc';

@ApiTags('projects')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a project' })
  @HttpCode(201)
  @Auth(Permissions.projectsWrite)
  @ApiCreatedResponse({ type: ProjectResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateProjectDto): Promise<ProjectResponse> {
    return this.projects.create(principal, dto);
  }

  @Get()
  @ApiOperation({ summary: 'List projects' })
  @Auth(Permissions.read)
  @ApiOkResponse({ type: [ProjectListItemDoc] })
  list(@CurrentPrincipal() principal: Principal): Promise<ProjectListItem[]> {
    return this.projects.list(principal.organizationId);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a project' })
  @Auth(Permissions.read)
  @ApiOkResponse({ type: ProjectResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Project not found' })
  get(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<ProjectResponse> {
    return this.projects.get(principal.organizationId, id);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a project' })
  @Auth(Permissions.projectsWrite)
  @ApiOkResponse({ type: ProjectResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Project not found' })
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', new UuidParamPipe()) id: string,
    @Body() dto: UpdateProjectDto,
  ): Promise<ProjectResponse> {
    return this.projects.update(principal.organizationId, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a project (its links stay, without a project)' })
  @Auth(Permissions.projectsDelete)
  @ApiOkResponse({ type: SuccessResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Project not found' })
  delete(@CurrentPrincipal() principal: Principal, @Param('id', new UuidParamPipe()) id: string): Promise<{ success: true }> {
    return this.projects.delete(principal.organizationId, id);
  }
}
