import { ShapeAgrees } from '@dl/platform/http';
import { EventOverviewResponseDto, InAppEventResponseDto } from './event-analytics-response.dto';
import { EventRow } from './event-analytics.dto';

/** Attributed events always have a link; a link deleted since keeps its id, with empty code and title. */
export function toInAppEventResponse(row: EventRow) {
  return {
    id: row.id,
    eventName: row.eventName,
    eventData: (row.eventData ?? {}) as Record<string, unknown>,
    eventTimestamp: row.eventTimestamp.toISOString(),
    installId: row.installId,
    linkId: row.linkId ?? '',
    linkShortCode: row.shortCode ?? '',
    linkTitle: row.title ?? '',
  };
}

export function toEventOverviewResponse(
  totals: { total: number; names: number; today: number; revenue: number },
  top: Array<{ eventName: string; count: number; lastOccurred: Date }>,
) {
  return {
    totalEvents: totals.total,
    uniqueEventNames: totals.names,
    eventsToday: totals.today,
    totalRevenue: totals.revenue,
    topEvents: top.map((t) => ({ eventName: t.eventName, count: t.count, lastOccurred: t.lastOccurred.toISOString() })),
  };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const EVENT_ANALYTICS_SHAPES_AGREE: [
  ShapeAgrees<InAppEventResponseDto, ReturnType<typeof toInAppEventResponse>>,
  ShapeAgrees<EventOverviewResponseDto, ReturnType<typeof toEventOverviewResponse>>,
] = [true, true];
