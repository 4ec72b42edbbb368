import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { exitOnSignals, runProcesses } from '@dl/platform/http';
import { createWorkerApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  runProcesses('worker', config.WEB_CONCURRENCY, async () => {
    const app = await createWorkerApp(config);
    exitOnSignals(app, 'worker', config.SHUTDOWN_TIMEOUT_MS);
    await app.listen(config.WORKER_PORT, config.HOST);
    app.getHttpAdapter().getInstance().log.info({ port: config.WORKER_PORT }, 'worker listening');
  }, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((err: unknown) => {
  process.stderr.write(`[worker] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
