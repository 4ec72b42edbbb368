import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@dl/platform/db';

export interface InAppEventRow {
  id: string;
  organizationId: string;
  appId: string;
  installId: string;
  linkId: string | null;
  clickId: string | null;
  eventName: string;
  eventData: Record<string, unknown>;
  eventTimestamp: Date;
  revenue: number | null;
  currency: string | null;
  attributed: boolean;
  receivedAt: Date;
}

/**
 * Stores in-app events of one organization in one statement: a multi-row insert
 * (`ON CONFLICT (id) DO NOTHING`, so a replayed batch counts nothing twice) and the
 * daily rollup of the rows actually inserted and attributed.
 */
@Injectable()
export class InAppEventsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async insertBatch(organizationId: string, rows: InAppEventRow[]): Promise<number> {
    if (!rows.length) return 0;
    const col = <T>(f: (r: InAppEventRow) => T) => rows.map(f);
    const result = await this.prisma.$queryRaw<Array<{ inserted: number }>>(Prisma.sql`
      WITH src AS (
        SELECT * FROM unnest(
          ${col((r) => r.id)}::uuid[], ${col((r) => r.appId)}::uuid[], ${col((r) => r.installId)}::uuid[],
          ${col((r) => r.linkId)}::uuid[], ${col((r) => r.clickId)}::uuid[], ${col((r) => r.eventName)}::text[],
          ${col((r) => JSON.stringify(r.eventData))}::text[], ${col((r) => r.eventTimestamp.toISOString())}::timestamptz[],
          ${col((r) => (r.revenue === null ? null : String(r.revenue)))}::numeric[], ${col((r) => r.currency)}::text[],
          ${col((r) => r.attributed)}::boolean[], ${col((r) => r.receivedAt.toISOString())}::timestamptz[]
        ) AS t(id, app_id, install_id, link_id, click_id, event_name, event_data, event_timestamp, revenue, currency, attributed, received_at)
      ),
      ins AS (
        INSERT INTO in_app_events (id, organization_id, app_id, install_id, link_id, click_id, event_name, event_data,
                                   event_timestamp, revenue, currency, attributed, received_at)
        SELECT id, ${organizationId}::uuid, app_id, install_id, link_id, click_id, event_name, event_data::jsonb,
               event_timestamp, revenue, currency, attributed, received_at
        FROM src
        ON CONFLICT (id) DO NOTHING
        RETURNING event_name, event_timestamp, revenue, attributed
      ),
      roll AS (
        INSERT INTO in_app_event_daily AS d (organization_id, day, event_name, events, revenue, last_occurred)
        SELECT ${organizationId}::uuid, (event_timestamp AT TIME ZONE 'UTC')::date, event_name, count(*)::int,
               coalesce(sum(revenue) FILTER (WHERE event_name = 'revenue'), 0), max(event_timestamp)
        FROM ins WHERE attributed
        GROUP BY 2, 3
        ORDER BY 2, 3
        ON CONFLICT (organization_id, day, event_name) DO UPDATE
          SET events = d.events + EXCLUDED.events,
              revenue = d.revenue + EXCLUDED.revenue,
              last_occurred = GREATEST(d.last_occurred, EXCLUDED.last_occurred)
      )
      SELECT count(*)::int AS inserted FROM ins`);
    return result[0]?.inserted ?? 0;
  }
}
