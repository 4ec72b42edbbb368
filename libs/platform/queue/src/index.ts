export * from './jobs';
export * from './queue.service';
export * from './queue.module';
export * from './dead-letters';
