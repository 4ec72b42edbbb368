export * from './config';
export * from './json-variable';
export * from './config.module';
export * from './service-hosts';
export * from './stripe-prices';
