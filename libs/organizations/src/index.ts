export * from './deletion-email';
export * from './organization.dto';
export * from './organization.errors';
export * from './organization-response.dto';
export * from './organization.mapper';
export * from './organization-settings.repository';
export * from './organizations.service';
export * from './organizations.module';
