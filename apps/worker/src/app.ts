import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp, onDrain } from '@dl/platform/http';
import { DependencyGate } from './resilience/dependency-gate';
import { WorkerModule } from './worker.module';

export async function createWorkerApp(config: AppConfig): Promise<NestFastifyApplication> {
  const app = await createHttpApp(WorkerModule.forRoot(config), config, 'worker', { requestLog: false });
  // On close: no new job, those in flight finish or are handed back, then the click pipeline and pools close.
  const gate = app.get(DependencyGate);
  onDrain(app, () => gate.closeWorkers());
  return app;
}
