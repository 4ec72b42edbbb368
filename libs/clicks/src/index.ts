export * from './fingerprint';
export * from './rollup-dimensions';
