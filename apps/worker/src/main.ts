import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { exitOnSignals } from '@dl/platform/http';
import { createWorkerApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  const app = await createWorkerApp(config);
  exitOnSignals(app, 'worker', config.SHUTDOWN_TIMEOUT_MS);
  await app.listen(config.WORKER_PORT, config.HOST);
  app.getHttpAdapter().getInstance().log.info({ port: config.WORKER_PORT }, 'worker listening');
}

main().catch((err: unknown) => {
  process.stderr.write(`[worker] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
