import { Injectable } from '@nestjs/common';
import { Prisma, PrismaReadService } from '@dl/platform/db';
import { EventRow } from './event-analytics.dto';

/** Which attributed events: since a UTC day (inclusive), optionally one name or a name search. */
export interface EventFilter {
  /** YYYY-MM-DD, the first UTC day of the window. */
  sinceDay: string;
  eventName?: string;
  /** Case-insensitive substring of the event name. */
  search?: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function rollupWhere(organizationId: string, f: EventFilter): Prisma.Sql {
  const parts = [Prisma.sql`organization_id = ${organizationId}::uuid`, Prisma.sql`day >= ${f.sinceDay}::date`];
  if (f.eventName !== undefined) parts.push(Prisma.sql`event_name = ${f.eventName}`);
  if (f.search) parts.push(Prisma.sql`event_name ILIKE ${`%${escapeLike(f.search)}%`}`);
  return Prisma.join(parts, ' AND ');
}

function eventsWhere(organizationId: string, f: EventFilter): Prisma.Sql {
  const parts = [
    Prisma.sql`e.organization_id = ${organizationId}::uuid`,
    Prisma.sql`e.attributed`,
    Prisma.sql`e.event_timestamp >= ${f.sinceDay}::date::timestamp AT TIME ZONE 'UTC'`,
  ];
  if (f.eventName !== undefined) parts.push(Prisma.sql`e.event_name = ${f.eventName}`);
  if (f.search) parts.push(Prisma.sql`e.event_name ILIKE ${`%${escapeLike(f.search)}%`}`);
  return Prisma.join(parts, ' AND ');
}

interface RawEventRow {
  id: string;
  event_name: string;
  event_data: unknown;
  event_timestamp: Date;
  install_id: string;
  link_id: string | null;
  short_code: string | null;
  title: string | null;
}

const toRow = (r: RawEventRow): EventRow => ({
  id: r.id,
  eventName: r.event_name,
  eventData: r.event_data,
  eventTimestamp: r.event_timestamp,
  installId: r.install_id,
  linkId: r.link_id,
  shortCode: r.short_code,
  title: r.title,
});

/**
 * Event analytics reads. Counts and sums come from the daily rollup (`in_app_event_daily`,
 * attributed events only); only the event list and export read raw rows, one page at a time.
 */
@Injectable()
export class EventAnalyticsRepository {
  /** Every read here is an aggregate or an export page: the replica (DATABASE_READ_URL). */
  constructor(private readonly prisma: PrismaReadService) {}

  async totals(organizationId: string, f: EventFilter, today: string): Promise<{ total: number; names: number; today: number; revenue: number }> {
    const [r] = await this.prisma.$queryRaw<Array<{ total: bigint | null; names: bigint; today: bigint | null; revenue: string | null }>>(Prisma.sql`
      SELECT sum(events) AS total, count(DISTINCT event_name) AS names,
             sum(events) FILTER (WHERE day = ${today}::date) AS today,
             sum(revenue) FILTER (WHERE event_name = 'revenue')::text AS revenue
      FROM in_app_event_daily WHERE ${rollupWhere(organizationId, f)}`);
    return { total: Number(r?.total ?? 0), names: Number(r?.names ?? 0), today: Number(r?.today ?? 0), revenue: Number(r?.revenue ?? 0) };
  }

  async topEvents(organizationId: string, f: EventFilter, limit: number): Promise<Array<{ eventName: string; count: number; lastOccurred: Date }>> {
    const rows = await this.prisma.$queryRaw<Array<{ event_name: string; count: bigint; last: Date }>>(Prisma.sql`
      SELECT event_name, sum(events) AS count, max(last_occurred) AS last
      FROM in_app_event_daily WHERE ${rollupWhere(organizationId, f)}
      GROUP BY event_name ORDER BY count DESC, event_name ASC LIMIT ${limit}`);
    return rows.map((r) => ({ eventName: r.event_name, count: Number(r.count), lastOccurred: r.last }));
  }

  /** One row per day of [sinceDay, today], zero-count days included. */
  async timeline(organizationId: string, f: EventFilter, today: string): Promise<Array<{ date: string; count: number }>> {
    const rows = await this.prisma.$queryRaw<Array<{ date: string; count: bigint }>>(Prisma.sql`
      WITH days AS (SELECT generate_series(${f.sinceDay}::date, ${today}::date, interval '1 day')::date AS day),
           counts AS (SELECT day, sum(events) AS n FROM in_app_event_daily WHERE ${rollupWhere(organizationId, f)} GROUP BY day)
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date, coalesce(c.n, 0) AS count
      FROM days d LEFT JOIN counts c ON c.day = d.day ORDER BY d.day`);
    return rows.map((r) => ({ date: r.date, count: Number(r.count) }));
  }

  async count(organizationId: string, f: EventFilter): Promise<number> {
    const [r] = await this.prisma.$queryRaw<Array<{ n: bigint | null }>>(Prisma.sql`
      SELECT sum(events) AS n FROM in_app_event_daily WHERE ${rollupWhere(organizationId, f)}`);
    return Number(r?.n ?? 0);
  }

  /** All-time attributed counts per event name, most frequent first. */
  async names(organizationId: string): Promise<Array<{ name: string; count: number }>> {
    const rows = await this.prisma.$queryRaw<Array<{ name: string; count: bigint }>>(Prisma.sql`
      SELECT event_name AS name, sum(events) AS count FROM in_app_event_daily
      WHERE organization_id = ${organizationId}::uuid
      GROUP BY event_name ORDER BY count DESC, name ASC`);
    return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
  }

  /** A page of events, newest first (ties by id). */
  async page(organizationId: string, f: EventFilter, offset: number, limit: number): Promise<EventRow[]> {
    const rows = await this.prisma.$queryRaw<RawEventRow[]>(Prisma.sql`
      SELECT e.id, e.event_name, e.event_data, e.event_timestamp, e.install_id, e.link_id, l.short_code, l.title
      FROM in_app_events e LEFT JOIN links l ON l.id = e.link_id AND l.organization_id = e.organization_id
      WHERE ${eventsWhere(organizationId, f)}
      ORDER BY e.event_timestamp DESC, e.id DESC
      OFFSET ${offset} LIMIT ${limit}`);
    return rows.map(toRow);
  }

  /** Events after a keyset position (timestamp, id), newest first: the export's next chunk. */
  async after(organizationId: string, f: EventFilter, last: { at: Date; id: string }, limit: number): Promise<EventRow[]> {
    const rows = await this.prisma.$queryRaw<RawEventRow[]>(Prisma.sql`
      SELECT e.id, e.event_name, e.event_data, e.event_timestamp, e.install_id, e.link_id, l.short_code, l.title
      FROM in_app_events e LEFT JOIN links l ON l.id = e.link_id AND l.organization_id = e.organization_id
      WHERE ${eventsWhere(organizationId, f)} AND (e.event_timestamp, e.id) < (${last.at}, ${last.id}::uuid)
      ORDER BY e.event_timestamp DESC, e.id DESC
      LIMIT ${limit}`);
    return rows.map(toRow);
  }
}
