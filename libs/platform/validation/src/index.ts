// Generic class-validator rules and value checks (any domain's DTOs use them).
export * from './validators';
export * from './http-url';
