export * from './database-ping';
export * from './logger';
export * from './metrics.service';
export * from './observability.module';
export * from './outage';
export * from './metrics-access';
export * from './http-metrics';
