export * from './config';
export * from './database';
export * from './harness';
export * from './identity';
export * from './dns-server';
export * from './private-servers';
export * from './caddy';
export * from './pg-replica';
