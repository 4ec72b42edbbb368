import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { createWorkerApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  const app = await createWorkerApp(config);
  await app.listen(config.WORKER_PORT, config.HOST);
  app.getHttpAdapter().getInstance().log.info({ port: config.WORKER_PORT }, 'worker listening');
}

if (require.main === module) void main();
export { main };
