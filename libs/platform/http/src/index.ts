export * from './errors';
export * from './error-body';
export * from './error-body.doc';
export * from './exception.filter';
export * from './validation.pipe';
export * from './platform.module';
export * from './bootstrap';
