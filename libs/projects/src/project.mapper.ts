import { ShapeAgrees } from '@dl/platform/http';
import { ProjectListItemDto, ProjectResponseDto } from './project-response.dto';
import { ProjectRecord } from './projects.repository';

export function toProjectResponse(p: ProjectRecord) {
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

export function toProjectListItem(p: ProjectRecord) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const PROJECT_SHAPES_AGREE: [
  ShapeAgrees<ProjectResponseDto, ReturnType<typeof toProjectResponse>>,
  ShapeAgrees<ProjectListItemDto, ReturnType<typeof toProjectListItem>>,
] = [true, true];
