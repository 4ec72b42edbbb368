import { Injectable } from '@nestjs/common';
import { PrismaService } from '@dl/platform/db';

export interface SuspendedOrganization {
  id: string;
  name: string;
  slug: string;
  suspendedAt: Date | null;
  suspensionReason: string | null;
}

/** Suspension state of organizations (decisions §22); each method names the organization it changes. */
@Injectable()
export class SuspensionsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Sets (a date) or clears (null) the suspension; null when the organization does not exist. */
  async setSuspension(organizationId: string, at: Date | null, reason: string | null): Promise<SuspendedOrganization | null> {
    const rows = await this.prisma.$queryRaw<SuspendedOrganization[]>`
      UPDATE organizations SET suspended_at = ${at}, suspension_reason = ${reason}, updated_at = now()
       WHERE id = ${organizationId}::uuid
      RETURNING id, name, slug, suspended_at AS "suspendedAt", suspension_reason AS "suspensionReason"`;
    return rows[0] ?? null;
  }

  /** Every link address of the organization (`<code>` or `<domain>/<code>`), for the edge's caches. */
  async linkAddresses(organizationId: string): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ key: string }>>`
      SELECT CASE WHEN domain_name = '' THEN short_code ELSE domain_name || '/' || short_code END AS key
        FROM links WHERE organization_id = ${organizationId}::uuid`;
    return rows.map((r) => r.key);
  }

  async isSuspended(organizationId: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<Array<{ s: boolean }>>`
      SELECT suspended_at IS NOT NULL AS s FROM organizations WHERE id = ${organizationId}::uuid`;
    return rows[0]?.s === true;
  }
}
