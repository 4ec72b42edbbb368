export * from './with-timeout';
