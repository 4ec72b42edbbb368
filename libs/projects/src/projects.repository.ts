import { Injectable } from '@nestjs/common';
import { hostCodeKey } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';

export interface ProjectRecord {
  id: string;
  organizationId: string;
  userId: string;
  name: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}


/** Projects of an organization; every method takes its id. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(organizationId: string): Promise<ProjectRecord[]> {
    return this.prisma.project.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  }

  async find(organizationId: string, id: string): Promise<ProjectRecord | null> {
    if (!isUuid(id)) return null;
    return this.prisma.project.findFirst({ where: { id, organizationId } });
  }

  create(organizationId: string, userId: string, data: { name: string; description: string | null }): Promise<ProjectRecord> {
    return this.prisma.project.create({ data: { organizationId, userId, ...data } });
  }

  async update(
    organizationId: string,
    id: string,
    data: { name?: string; description?: string | null },
  ): Promise<ProjectRecord | null> {
    if (!isUuid(id)) return null;
    const { count } = await this.prisma.project.updateMany({ where: { id, organizationId }, data: { ...data, updatedAt: new Date() } });
    return count ? this.find(organizationId, id) : null;
  }

  /**
   * Deletes the project and unassigns its links (they stay) in one transaction.
   * Returns the short codes of the unassigned links, or null when not found.
   */
  async delete(organizationId: string, id: string): Promise<string[] | null> {
    if (!isUuid(id)) return null;
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM projects WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
      if (!found.length) return null;
      const links = await tx.$queryRaw<Array<{ domain_name: string; short_code: string }>>`
        UPDATE links SET project_id = NULL, updated_at = now()
        WHERE organization_id = ${organizationId}::uuid AND project_id = ${id}::uuid
        RETURNING domain_name, short_code`;
      await tx.$executeRaw`DELETE FROM projects WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid`;
      return links.map((l) => hostCodeKey(l.domain_name, l.short_code));
    });
  }
}
