export * from './saml.errors';
export * from './saml-connection';
export * from './saml-service-provider';
export * from './saml.provider';
