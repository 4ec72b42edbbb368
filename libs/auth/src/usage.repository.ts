import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@dl/platform/db';

/** What GET /api/usage counts for an organization. */
export interface UsageCounts {
  links: number;
  apiKeys: number;
  clicks: number;
}

/** Counts behind GET /api/usage: three indexed aggregates in one round trip. */
@Injectable()
export class UsageRepository {
  constructor(private readonly prisma: PrismaService) {}

  async counts(organizationId: string, monthStart: Date): Promise<UsageCounts> {
    const [row] = await this.prisma.$queryRaw<Array<{ links: bigint; apiKeys: bigint; clicks: bigint | null }>>(Prisma.sql`
      SELECT (SELECT count(*) FROM links WHERE organization_id = ${organizationId}::uuid) AS links,
             (SELECT count(*) FROM api_keys WHERE organization_id = ${organizationId}::uuid AND revoked_at IS NULL) AS "apiKeys",
             (SELECT sum(clicks) FROM click_rollups
               WHERE organization_id = ${organizationId}::uuid AND dimension = 'total' AND day >= ${monthStart.toISOString().slice(0, 10)}::date) AS clicks`);
    return { links: Number(row.links), apiKeys: Number(row.apiKeys), clicks: Number(row.clicks ?? 0) };
  }
}
