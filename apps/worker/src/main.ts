import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@dl/platform/config';
import { exitOnSignals, lowerCpuPriority, runProcesses } from '@dl/platform/http';
import { createWorkerApp } from './app';

/**
 * Old-generation growth of the worker, as the redirect's (apps/redirect/src/main.ts): a click
 * batch's garbage (raw jobs, enriched clicks, the statements' rows) is short-lived; with V8's
 * default factor the heap grew to several times the live size between full GCs. 25 rather than
 * the redirect's 50: at the peak of a 60,000-click backlog old space held ~58 MB live in ~94 MB
 * committed, and 25 starts the next full collection sooner (peak RSS 236-243 MB against 250-254,
 * for ~5% more CPU per click; docs/performance.md, "The worker's allocation per click").
 */
export const WORKER_HEAP_GROWING_PERCENT = 25;

async function main(): Promise<void> {
  setFlagsFromString(`--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`);
  const config = loadConfigOrExit('worker');
  // Before runProcesses: processes it forks start at the same priority.
  if (config.WORKER_NICE > 0) {
    const { threads, autogroup } = lowerCpuPriority(config.WORKER_NICE);
    new Logger('Worker').log(`CPU priority lowered to nice ${config.WORKER_NICE} (${threads} threads${autogroup ? ' and its session' : ''}): requests on this host go first`);
  }
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
