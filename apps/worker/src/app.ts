import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { WorkerModule } from './worker.module';

export async function createWorkerApp(config: AppConfig): Promise<NestFastifyApplication> {
  return createHttpApp(WorkerModule.forRoot(config), config, 'worker', { requestLog: false });
}
export { CLICK_BATCH_SIZE, CLICK_CONCURRENCY } from './clicks/clicks.processor';
