import 'reflect-metadata';
import { loadConfigOrExit } from '@dl/platform/config';
import { exitOnSignals, runProcesses } from '@dl/platform/http';
import { createIngestApp } from './app';

async function main(): Promise<void> {
  const config = loadConfigOrExit('ingest');
  runProcesses('ingest', config.WEB_CONCURRENCY, async () => {
    const app = await createIngestApp(config);
    exitOnSignals(app, 'ingest', config.SHUTDOWN_TIMEOUT_MS);
    await app.listen(config.INGEST_PORT, config.HOST);
    app.getHttpAdapter().getInstance().log.info({ port: config.INGEST_PORT }, 'ingest listening');
  }, config.SHUTDOWN_TIMEOUT_MS);
}

main().catch((err: unknown) => {
  process.stderr.write(`[ingest] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
