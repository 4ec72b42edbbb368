export * from './link-field';
export * from './link-fields';
export * from './link-shapes';
export * from './fdl-params';
