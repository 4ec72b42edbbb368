export * from './demo-seed.command';
