import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { exitOnSignals, runProcesses } from '@dl/platform/http';
import { createRedirectApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('redirect');
  runProcesses('redirect', config.WEB_CONCURRENCY, async () => {
    const app = await createRedirectApp(config);
    exitOnSignals(app, 'redirect', config.SHUTDOWN_TIMEOUT_MS);
    await app.listen(config.REDIRECT_PORT, config.HOST);
    app.getHttpAdapter().getInstance().log.info({ port: config.REDIRECT_PORT }, 'redirect listening');
  }, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((err: unknown) => {
  process.stderr.write(`[redirect] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
