export * from './template.dto';
export * from './template-response.dto';
export * from './template.mapper';
export * from './templates.errors';
export * from './templates.repository';
export * from './templates.service';
export * from './templates.module';
