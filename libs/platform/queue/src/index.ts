export * from './jobs';
export * from './queue.service';
export * from './queue.module';
export * from './dead-letters';
export * from './click-id';
export * from './click-batch-codec';
export * from './click-time';
