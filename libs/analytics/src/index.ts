export * from './analytics.dto';
export * from './analytics-response.dto';
export * from './analytics.mapper';
export * from './analytics.repository';
export * from './link-analytics.service';
export * from './analytics.module';
export * from './click-export';
