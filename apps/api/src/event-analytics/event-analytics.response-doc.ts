import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI documentation of the event analytics responses (libs/event-analytics/src/event-analytics.dto.ts). */
export class TopEventDoc {
  @ApiProperty() eventName!: string;
  @ApiProperty() count!: number;
  @ApiProperty({ format: 'date-time' }) lastOccurred!: string;
}

export class EventOverviewResponseDoc {
  @ApiProperty() totalEvents!: number;
  @ApiProperty() uniqueEventNames!: number;
  @ApiProperty() eventsToday!: number;
  @ApiProperty() totalRevenue!: number;
  @ApiProperty({ type: [TopEventDoc] }) topEvents!: TopEventDoc[];
}

export class EventDayCountDoc {
  @ApiProperty({ example: '2026-11-01', description: 'UTC day (YYYY-MM-DD)' }) date!: string;
  @ApiProperty() count!: number;
}

export class EventTimelineResponseDoc {
  @ApiProperty({ type: [EventDayCountDoc] }) timeline!: EventDayCountDoc[];
}

export class InAppEventResponseDoc {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() eventName!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) eventData!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) eventTimestamp!: string;
  @ApiProperty({ format: 'uuid' }) installId!: string;
  @ApiProperty() linkId!: string;
  @ApiProperty() linkShortCode!: string;
  @ApiProperty() linkTitle!: string;
}

export class EventListResponseDoc {
  @ApiProperty({ type: [InAppEventResponseDoc] }) events!: InAppEventResponseDoc[];
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
}

export class EventNameCountDoc {
  @ApiProperty() name!: string;
  @ApiProperty() count!: number;
}

export class EventNamesResponseDoc {
  @ApiProperty({ type: [EventNameCountDoc] }) eventNames!: EventNameCountDoc[];
}

export class EventExportPaginationDoc {
  @ApiProperty() total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty() hasMore!: boolean;
}

/** `format=json` body of the export (streamed). */
export class EventExportJsonDoc {
  @ApiProperty({ type: [InAppEventResponseDoc] }) data!: InAppEventResponseDoc[];
  @ApiProperty({ type: EventExportPaginationDoc }) pagination!: EventExportPaginationDoc;
}
