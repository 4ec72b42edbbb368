import { Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { Principal } from '@dl/auth';
import { LinkEventsService, ProjectNotFoundError } from '@dl/links';
import { NoUpdatesError } from '@dl/platform/http';
import { CreateProjectDto, UpdateProjectDto } from './project.dto';
import { ProjectListItemDto, ProjectResponseDto } from './project-response.dto';
import { toProjectListItem, toProjectResponse } from './project.mapper';
import { ProjectsRepository } from './projects.repository';

@Injectable()
export class ProjectsService {
  constructor(
    private readonly repo: ProjectsRepository,
    private readonly linkEvents: LinkEventsService,
    private readonly audit: AuditSink,
  ) {}

  async list(organizationId: string): Promise<ProjectListItemDto[]> {
    return (await this.repo.list(organizationId)).map(toProjectListItem);
  }

  async get(organizationId: string, id: string): Promise<ProjectResponseDto> {
    const p = await this.repo.find(organizationId, id);
    if (!p) throw new ProjectNotFoundError();
    return toProjectResponse(p);
  }

  async create(principal: Principal, dto: CreateProjectDto): Promise<ProjectResponseDto> {
    const p = await this.repo.create(principal.organizationId, principal.userId, {
      name: dto.name.trim(),
      description: dto.description ?? null,
    });
    this.audit.record({ organizationId: principal.organizationId, action: 'project.created', targetId: p.id, changes: { name: p.name, description: p.description } });
    return toProjectResponse(p);
  }

  async update(organizationId: string, id: string, dto: UpdateProjectDto | undefined): Promise<ProjectResponseDto> {
    const data: { name?: string; description?: string | null } = {};
    if (dto?.name !== undefined) data.name = dto.name.trim();
    if (dto?.description !== undefined) data.description = dto.description;
    if (!Object.keys(data).length) throw new NoUpdatesError();
    const p = await this.repo.update(organizationId, id, data);
    if (!p) throw new ProjectNotFoundError();
    this.audit.record({ organizationId, action: 'project.updated', targetId: id, changes: data });
    return toProjectResponse(p);
  }

  /** Deletes the project; its links stay, unassigned, and redirect caches drop them. */
  async delete(organizationId: string, id: string): Promise<{ success: true }> {
    const codes = await this.repo.delete(organizationId, id);
    if (!codes) throw new ProjectNotFoundError();
    await this.linkEvents.invalidate(codes);
    this.audit.record({ organizationId, action: 'project.deleted', targetId: id });
    return { success: true };
  }
}
