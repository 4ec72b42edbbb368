export * from './event-analytics.dto';
export * from './event-analytics-response.dto';
export * from './event-analytics.mapper';
export * from './event-analytics.repository';
export * from './event-analytics.service';
export * from './event-analytics.module';
