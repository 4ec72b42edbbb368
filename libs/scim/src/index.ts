export * from './scim-errors';
export * from './scim-filter';
export * from './scim-resources';
export * from './scim-tokens';
export * from './scim.repository';
export * from './scim.service';
export * from './scim.module';
