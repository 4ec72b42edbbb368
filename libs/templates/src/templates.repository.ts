import { Injectable } from '@nestjs/common';
import { isUniqueViolation, Prisma, PrismaService } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { TemplateInUseError, TemplateSlugInUseError } from './templates.errors';

export interface TemplateRecord {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  description: string | null;
  defaults: unknown;
  linkCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TemplateWrite {
  name?: string;
  slug?: string;
  description?: string | null;
  defaults?: Record<string, unknown>;
}

const SELECT = { id: true, organizationId: true, name: true, slug: true, description: true, defaults: true, createdAt: true, updatedAt: true } as const;


/** Templates of an organization; every method takes its id. */
@Injectable()
export class TemplatesRepository {
  constructor(private readonly prisma: PrismaService) {}

  private async counts(organizationId: string, ids?: string[]): Promise<Map<string, number>> {
    const rows = await this.prisma.$queryRaw<Array<{ template_id: string; n: number }>>`
      SELECT template_id, count(*)::int AS n FROM links
      WHERE organization_id = ${organizationId}::uuid
      ${ids ? Prisma.sql`AND template_id = ANY(${ids}::uuid[])` : Prisma.empty}
      GROUP BY template_id`;
    return new Map(rows.map((r) => [r.template_id, r.n]));
  }

  async list(organizationId: string): Promise<TemplateRecord[]> {
    const [rows, counts] = await Promise.all([
      this.prisma.template.findMany({ where: { organizationId }, select: SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
      this.counts(organizationId),
    ]);
    return rows.map((r) => ({ ...r, linkCount: counts.get(r.id) ?? 0 }));
  }

  async find(organizationId: string, id: string): Promise<TemplateRecord | null> {
    if (!isUuid(id)) return null;
    const row = await this.prisma.template.findFirst({ where: { id, organizationId }, select: SELECT });
    if (!row) return null;
    const counts = await this.counts(organizationId, [id]);
    return { ...row, linkCount: counts.get(id) ?? 0 };
  }

  async create(organizationId: string, data: Required<Pick<TemplateWrite, 'name' | 'slug'>> & TemplateWrite): Promise<TemplateRecord> {
    try {
      const row = await this.prisma.template.create({
        data: {
          organizationId,
          name: data.name,
          slug: data.slug,
          description: data.description ?? null,
          defaults: (data.defaults ?? {}) as Prisma.InputJsonValue,
        },
        select: SELECT,
      });
      return { ...row, linkCount: 0 };
    } catch (err) {
      if (isUniqueViolation(err)) throw new TemplateSlugInUseError(data.slug);
      throw err;
    }
  }

  /** null when the template is not the organization's. */
  async update(organizationId: string, id: string, data: TemplateWrite): Promise<TemplateRecord | null> {
    if (!isUuid(id)) return null;
    try {
      const { count } = await this.prisma.template.updateMany({
        where: { id, organizationId },
        data: {
          name: data.name,
          slug: data.slug,
          description: data.description,
          defaults: data.defaults as Prisma.InputJsonValue | undefined,
          updatedAt: new Date(),
        },
      });
      if (!count) return null;
    } catch (err) {
      if (isUniqueViolation(err)) throw new TemplateSlugInUseError(data.slug ?? '');
      throw err;
    }
    return this.find(organizationId, id);
  }

  /** Deletes an unused template (409 when links use it); false when not the organization's. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return this.prisma.$transaction(async (tx) => {
      const template = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM templates WHERE id = ${id}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
      if (!template.length) return false;
      const [{ n }] = await tx.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM links WHERE template_id = ${id}::uuid`;
      if (n > 0) throw new TemplateInUseError(n);
      await tx.template.delete({ where: { id } });
      return true;
    });
  }
}
