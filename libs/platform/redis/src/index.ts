export * from './redis.module';
export * from './channels';
