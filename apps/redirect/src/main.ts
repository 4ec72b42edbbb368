import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { loadConfigOrExit } from '@dl/platform/config';
import { exitOnSignals, runProcesses } from '@dl/platform/http';
import { createRedirectApp } from './app';

/**
 * Old-generation growth of the redirect process. Under load most old-space garbage is
 * short-lived request and click-batch objects that a scavenge caught in flight; with V8's
 * default dynamic factor (up to 4× the live heap) the process grows far past its live size
 * before a full collection. A fixed 50% keeps the next major collection close to the live size
 * (short, concurrent). A flag V8 does not know is ignored.
 */
export const REDIRECT_HEAP_GROWING_PERCENT = 50;

async function main(): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${REDIRECT_HEAP_GROWING_PERCENT}`);
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
