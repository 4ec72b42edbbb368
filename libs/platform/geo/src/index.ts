export * from './bounded-cache';
export * from './bots';
export * from './country-names';
export * from './geoip';
