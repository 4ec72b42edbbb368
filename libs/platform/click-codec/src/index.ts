export * from './click-job';
export * from './click-batch-codec';
export * from './click-batch-job-id';
export * from './click-id';
export * from './click-time';
