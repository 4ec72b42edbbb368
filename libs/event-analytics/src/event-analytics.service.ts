import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import {
  boundedInt,
  CSV_HEADER,
  DEFAULT_DAYS,
  DEFAULT_EXPORT_LIMIT,
  DEFAULT_PAGE_SIZE,
  EventDaysQueryDto,
  EventExportQueryDto,
  EventListQueryDto,
  EventTimelineQueryDto,
  MAX_EXPORT_LIMIT,
  MAX_PAGE_SIZE,
  TOP_EVENTS,
  toCsvLine,
} from './event-analytics.dto';
import {
  EventListResponseDto,
  EventNamesResponseDto,
  EventOverviewResponseDto,
  EventTimelineResponseDto,
  InAppEventResponseDto,
} from './event-analytics-response.dto';
import { toEventOverviewResponse, toInAppEventResponse } from './event-analytics.mapper';
import { EventAnalyticsRepository, EventFilter } from './event-analytics.repository';

/** Rows fetched per round trip while streaming an export. */
export const EXPORT_CHUNK = 1000;

export interface EventExport {
  contentType: string;
  filename: string;
  stream: Readable;
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The window of `days` days ending today (UTC): its first and last day. */
export function dayWindow(days: number, now: Date): { sinceDay: string; today: string } {
  const today = utcDay(now);
  const since = new Date(`${today}T00:00:00.000Z`);
  since.setUTCDate(since.getUTCDate() - (days - 1));
  return { sinceDay: utcDay(since), today };
}

/** In-app event analytics of an organization (attributed events only; spec "In-app event analytics"). */
@Injectable()
export class EventAnalyticsService {
  constructor(
    private readonly repository: EventAnalyticsRepository,
    private readonly audit: AuditSink,
  ) {}

  async overview(organizationId: string, q: EventDaysQueryDto, now = new Date()): Promise<EventOverviewResponseDto> {
    const { sinceDay, today } = dayWindow(q.days ?? DEFAULT_DAYS, now);
    const f: EventFilter = { sinceDay };
    const [totals, top] = await Promise.all([
      this.repository.totals(organizationId, f, today),
      this.repository.topEvents(organizationId, f, TOP_EVENTS),
    ]);
    return toEventOverviewResponse(totals, top);
  }

  async timeline(organizationId: string, q: EventTimelineQueryDto, now = new Date()): Promise<EventTimelineResponseDto> {
    const { sinceDay, today } = dayWindow(q.days ?? DEFAULT_DAYS, now);
    return { timeline: await this.repository.timeline(organizationId, { sinceDay, eventName: q.eventName }, today) };
  }

  async list(organizationId: string, q: EventListQueryDto, now = new Date()): Promise<EventListResponseDto> {
    const page = boundedInt('page', q.page, 1, 1, 1_000_000);
    const limit = boundedInt('limit', q.limit, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE);
    const { sinceDay } = dayWindow(q.days ?? DEFAULT_DAYS, now);
    const f: EventFilter = { sinceDay, eventName: q.eventName, search: q.search?.trim() || undefined };
    const [rows, total] = await Promise.all([
      this.repository.page(organizationId, f, (page - 1) * limit, limit),
      this.repository.count(organizationId, f),
    ]);
    return { events: rows.map(toInAppEventResponse), total, page, limit };
  }

  async names(organizationId: string): Promise<EventNamesResponseDto> {
    return { eventNames: await this.repository.names(organizationId) };
  }

  /** Streams the export (JSON or CSV) chunk by chunk: memory stays flat whatever the size. */
  async export(organizationId: string, q: EventExportQueryDto, now = new Date()): Promise<EventExport> {
    const limit = boundedInt('limit', q.limit, DEFAULT_EXPORT_LIMIT, 1, MAX_EXPORT_LIMIT);
    const offset = boundedInt('offset', q.offset, 0, 0, Number.MAX_SAFE_INTEGER);
    const { sinceDay } = dayWindow(q.days ?? DEFAULT_DAYS, now);
    const f: EventFilter = { sinceDay, eventName: q.eventName };
    const total = await this.repository.count(organizationId, f);
    this.audit.record({ organizationId, action: 'export.created', changes: { kind: 'events', ...q } });
    const rows = this.rows(organizationId, f, offset, limit);
    if (q.format === 'csv') {
      return { contentType: 'text/csv; charset=utf-8', filename: 'events.csv', stream: Readable.from(csvChunks(rows)) };
    }
    return {
      contentType: 'application/json; charset=utf-8',
      filename: 'events.json',
      stream: Readable.from(jsonChunks(rows, { total, limit, offset })),
    };
  }

  private async *rows(organizationId: string, f: EventFilter, offset: number, limit: number) {
    let remaining = limit;
    let chunk = await this.repository.page(organizationId, f, offset, Math.min(EXPORT_CHUNK, remaining));
    while (chunk.length) {
      yield chunk.map(toInAppEventResponse);
      remaining -= chunk.length;
      if (remaining <= 0 || chunk.length < EXPORT_CHUNK) return;
      const last = chunk[chunk.length - 1];
      chunk = await this.repository.after(organizationId, f, { at: last.eventTimestamp, id: last.id }, Math.min(EXPORT_CHUNK, remaining));
    }
  }
}

async function* csvChunks(rows: AsyncGenerator<InAppEventResponseDto[]>): AsyncGenerator<string> {
  yield `${CSV_HEADER}\n`;
  for await (const chunk of rows) yield chunk.map((e) => `${toCsvLine(e)}\n`).join('');
}

async function* jsonChunks(
  rows: AsyncGenerator<InAppEventResponseDto[]>,
  p: { total: number; limit: number; offset: number },
): AsyncGenerator<string> {
  yield '{"data":[';
  let sent = 0;
  for await (const chunk of rows) {
    yield chunk.map((e, i) => (sent + i === 0 ? '' : ',') + JSON.stringify(e)).join('');
    sent += chunk.length;
  }
  const pagination = { total: p.total, limit: p.limit, offset: p.offset, hasMore: p.offset + sent < p.total };
  yield `],"pagination":${JSON.stringify(pagination)}}`;
}
