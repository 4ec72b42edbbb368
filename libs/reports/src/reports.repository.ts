import { Injectable } from '@nestjs/common';
import type { Organization } from '@dl/platform/db';
import { PrismaService, Role } from '@dl/platform/db';

export type OrganizationRow = Pick<Organization, 'id' | 'name' | 'slug' | 'tier' | 'createdAt'>;

export interface StoredReportRow {
  period: string;
  body: unknown;
  generatedAt: Date;
  emailedAt: Date | null;
}

/**
 * The monthly report's own rows, on the primary: the organizations it is made for and who
 * receives it, and the stored reports (the first writer wins; one email per report).
 * The aggregates a report is built from are `ReportDataRepository`'s.
 */
@Injectable()
export class ReportsRepository {
  constructor(private readonly prisma: PrismaService) {}

  findOrganization(organizationId: string): Promise<OrganizationRow | null> {
    return this.prisma.organization.findUnique({
      where: { id: organizationId },
      select: { id: true, name: true, slug: true, tier: true, createdAt: true },
    });
  }

  /** Organizations that existed before `before` (the scheduled run's fan-out). */
  async organizationIdsCreatedBefore(before: Date): Promise<string[]> {
    const rows = await this.prisma.organization.findMany({
      where: { createdAt: { lt: before } },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((r) => r.id);
  }

  async recipients(organizationId: string): Promise<Array<{ email: string; name: string; role: Role }>> {
    const rows = await this.prisma.membership.findMany({
      // A suspended organization gets no scheduled email (decisions §22).
      where: { organizationId, role: { in: [Role.OWNER, Role.ADMIN] }, organization: { suspendedAt: null } },
      select: { role: true, user: { select: { email: true, name: true } } },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map((r) => ({ email: r.user.email, name: r.user.name, role: r.role }));
  }

  findStored(organizationId: string, period: string): Promise<StoredReportRow | null> {
    return this.prisma.monthlyReport.findUnique({
      where: { organizationId_period: { organizationId, period } },
      select: { period: true, body: true, generatedAt: true, emailedAt: true },
    });
  }

  listStored(organizationId: string, fromPeriod: string): Promise<Array<{ period: string; generatedAt: Date }>> {
    return this.prisma.monthlyReport.findMany({
      where: { organizationId, period: { gte: fromPeriod } },
      select: { period: true, generatedAt: true },
      orderBy: { period: 'desc' },
    });
  }

  /** Stores a report unless one exists (the first writer wins under concurrent reads). */
  async insertIfAbsent(organizationId: string, period: string, body: object, generatedAt: Date): Promise<boolean> {
    const n = await this.prisma.$executeRaw`
      INSERT INTO monthly_reports (organization_id, period, body, generated_at)
      VALUES (${organizationId}::uuid, ${period}, ${JSON.stringify(body)}::jsonb, ${generatedAt})
      ON CONFLICT (organization_id, period) DO NOTHING`;
    return n === 1;
  }

  /** Replaces the stored copy (regeneration); `emailed_at` is kept. */
  async upsert(organizationId: string, period: string, body: object, generatedAt: Date): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO monthly_reports (organization_id, period, body, generated_at)
      VALUES (${organizationId}::uuid, ${period}, ${JSON.stringify(body)}::jsonb, ${generatedAt})
      ON CONFLICT (organization_id, period) DO UPDATE SET body = EXCLUDED.body, generated_at = EXCLUDED.generated_at`;
  }

  /**
   * Runs `send` once per stored report: the row is locked for the duration, so a
   * second run (schedule fired twice) waits and then sees `emailed_at`; a crash
   * before commit leaves `emailed_at` null and the retry sends.
   */
  async withEmailClaim(
    organizationId: string,
    period: string,
    send: () => Promise<void>,
  ): Promise<'sent' | 'already-sent' | 'missing'> {
    return this.prisma.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<Array<{ emailedAt: Date | null }>>`
          SELECT emailed_at AS "emailedAt" FROM monthly_reports
          WHERE organization_id = ${organizationId}::uuid AND period = ${period} FOR UPDATE`;
        if (!rows.length) return 'missing';
        if (rows[0].emailedAt) return 'already-sent';
        await send();
        await tx.$executeRaw`
          UPDATE monthly_reports SET emailed_at = now()
          WHERE organization_id = ${organizationId}::uuid AND period = ${period}`;
        return 'sent';
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  }
}
