// Generic class-validator rules and value checks (any domain's DTOs use them).
export * from './validators';
export * from './stacked';
export * from './http-url';
// A DTO's rules compiled once from that metadata (the ValidationPipe's verdict without its per-call cost).
export * from './compiled-dto';
export * from './utm';
export * from './currencies';
export * from './slug';
export * from './json-paths';
