import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, loadConfigOrExit } from '@dl/platform/config';
import { runProcesses } from './processes';
import { exitOnSignals } from './shutdown';

type PortKey = 'API_PORT' | 'REDIRECT_PORT' | 'INGEST_PORT' | 'WORKER_PORT';

/**
 * An app's process entry (`apps/<name>/src/main.ts`): the configuration validated (or the process
 * exits naming what is wrong), WEB_CONCURRENCY processes, each listening on the app's port and
 * shutting down gracefully on SIGTERM/SIGINT.
 */
export function serveApp(name: string, portKey: PortKey, create: (config: AppConfig) => Promise<NestFastifyApplication>): void {
  const config = loadConfigOrExit(name);
  runProcesses(name, config.WEB_CONCURRENCY, async () => {
    const app = await create(config);
    exitOnSignals(app, name, config.SHUTDOWN_TIMEOUT_MS);
    await app.listen(config[portKey], config.HOST);
    app.getHttpAdapter().getInstance().log.info({ port: config[portKey] }, `${name} listening`);
  }, config.SHUTDOWN_TIMEOUT_MS);
}
