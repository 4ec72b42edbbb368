import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dl/platform/db';

export interface AbuseReportRecord {
  id: string;
  url: string;
  linkId: string | null;
  organizationId: string | null;
  category: string;
  details: string | null;
  reporterEmail: string | null;
  status: string;
  resolutionNote: string | null;
  resolvedAt: Date | null;
  createdAt: Date;
}

export type NewAbuseReport = Pick<AbuseReportRecord, 'url' | 'linkId' | 'organizationId' | 'category' | 'details' | 'reporterEmail'>;

/**
 * Abuse reports. They belong to the operator, not to a tenant: a report names a link of any
 * organization, so these methods are service-wide (the operator CLI and the public report form).
 */
@Injectable()
export class AbuseReportsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The link at a host's code (`''` = the service host), any organization. */
  async findLink(domainName: string, shortCode: string): Promise<{ id: string; organizationId: string } | null> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string; organizationId: string }>>`
      SELECT id, organization_id AS "organizationId" FROM links WHERE domain_name = ${domainName} AND short_code = ${shortCode}`;
    return rows[0] ?? null;
  }

  /** Whether a host is a branded domain that serves links (verified, or invalid but in use). */
  async isLinkHost(domain: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<Array<{ one: number }>>`
      SELECT 1 AS one FROM domains WHERE domain = ${domain} AND status IN ('verified', 'invalid') LIMIT 1`;
    return rows.length > 0;
  }

  create(report: NewAbuseReport): Promise<AbuseReportRecord> {
    return this.prisma.abuseReport.create({ data: report });
  }

  list(status?: string): Promise<AbuseReportRecord[]> {
    return this.prisma.abuseReport.findMany({ where: status ? { status } : {}, orderBy: { createdAt: 'asc' }, take: 1000 });
  }

  find(id: string): Promise<AbuseReportRecord | null> {
    return this.prisma.abuseReport.findUnique({ where: { id } });
  }

  resolve(id: string, status: string, note: string | null): Promise<AbuseReportRecord> {
    return this.prisma.abuseReport.update({ where: { id }, data: { status, resolutionNote: note, resolvedAt: new Date() } });
  }

  /** Blocks one link (an operator's decision on a report). */
  async blockLink(linkId: string, reason: string): Promise<{ domainName: string; shortCode: string } | null> {
    const rows = await this.prisma.$queryRaw<Array<{ domainName: string; shortCode: string }>>`
      UPDATE links SET safety_status = 'blocked', safety_reason = ${reason}, safety_checked_at = now(), updated_at = now()
       WHERE id = ${linkId}::uuid
      RETURNING domain_name AS "domainName", short_code AS "shortCode"`;
    return rows[0] ?? null;
  }
}
