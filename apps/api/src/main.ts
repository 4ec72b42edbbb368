import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { exitOnSignals, runProcesses } from '@dl/platform/http';
import { createApiApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  runProcesses('api', config.WEB_CONCURRENCY, async () => {
    const app = await createApiApp(config);
    exitOnSignals(app, 'api', config.SHUTDOWN_TIMEOUT_MS);
    await app.listen(config.API_PORT, config.HOST);
    app.getHttpAdapter().getInstance().log.info({ port: config.API_PORT }, 'api listening');
  }, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((err: unknown) => {
  process.stderr.write(`[api] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
