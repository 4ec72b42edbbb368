import { ProjectListItem, ProjectResponse } from './project.dto';
import { ProjectRecord } from './projects.repository';

export function toProjectResponse(p: ProjectRecord): ProjectResponse {
  return {
    id: p.id,
    user_id: p.userId,
    organization_id: p.organizationId,
    name: p.name,
    description: p.description,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export function toProjectListItem(p: ProjectRecord): ProjectListItem {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
