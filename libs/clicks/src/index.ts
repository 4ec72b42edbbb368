export * from './fingerprint';
