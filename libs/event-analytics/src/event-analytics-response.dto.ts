import { ApiProperty } from '@nestjs/swagger';

/*
 * Event analytics answers (decisions §8): each class is the type the service or its mapper
 * (event-analytics.mapper.ts, checked there) builds and the OpenAPI schema.
 */

export class TopEventDto {
  @ApiProperty() eventName!: string;
  @ApiProperty() count!: number;
  @ApiProperty({ format: 'date-time' }) lastOccurred!: string;
}

export class EventOverviewResponseDto {
  @ApiProperty() totalEvents!: number;
  @ApiProperty() uniqueEventNames!: number;
  @ApiProperty() eventsToday!: number;
  @ApiProperty() totalRevenue!: number;
  @ApiProperty({ type: [TopEventDto] }) topEvents!: TopEventDto[];
}

export class EventDayCountDto {
  @ApiProperty({ example: '2026-11-01', description: 'UTC day (YYYY-MM-DD)' }) date!: string;
  @ApiProperty() count!: number;
}

export class EventTimelineResponseDto {
  @ApiProperty({ type: [EventDayCountDto] }) timeline!: EventDayCountDto[];
}

export class InAppEventResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() eventName!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) eventData!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) eventTimestamp!: string;
  @ApiProperty({ format: 'uuid' }) installId!: string;
  @ApiProperty() linkId!: string;
  @ApiProperty() linkShortCode!: string;
  @ApiProperty() linkTitle!: string;
}

export class EventListResponseDto {
  @ApiProperty({ type: [InAppEventResponseDto] }) events!: InAppEventResponseDto[];
  @ApiProperty() total!: number;
  @ApiProperty() page!: number;
  @ApiProperty() limit!: number;
}

export class EventNameCountDto {
  @ApiProperty() name!: string;
  @ApiProperty() count!: number;
}

export class EventNamesResponseDto {
  @ApiProperty({ type: [EventNameCountDto] }) eventNames!: EventNameCountDto[];
}

export class EventExportPaginationDto {
  @ApiProperty() total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
  @ApiProperty() hasMore!: boolean;
}

/** `format=json` body of the export (streamed). */
export class EventExportJsonDto {
  @ApiProperty({ type: [InAppEventResponseDto] }) data!: InAppEventResponseDto[];
  @ApiProperty({ type: EventExportPaginationDto }) pagination!: EventExportPaginationDto;
}
