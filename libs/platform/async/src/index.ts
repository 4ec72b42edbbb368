export * from './with-timeout';
export * from './adjustable-clock';
