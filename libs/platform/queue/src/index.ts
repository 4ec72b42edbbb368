export * from './jobs';
export * from './queue.service';
export * from './queue.module';
