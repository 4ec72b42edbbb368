import type { Logger } from 'pino';
import { MetricsService } from '@dl/platform/observability';

interface Guarded {
  logger: Logger;
  metrics: MetricsService;
}

/** Apps of this process (several share one in tests and under `npm start`). */
const apps = new Set<Guarded>();
let installed = false;

function report(kind: 'unhandledRejection' | 'uncaughtException', err: unknown): void {
  for (const app of apps) {
    app.metrics.processErrors.inc({ kind });
  }
  const first = apps.values().next().value as Guarded | undefined;
  if (first) first.logger.error({ err, kind }, `${kind}: logged and counted, the process keeps serving`);
  else process.stderr.write(`${kind}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
}

/**
 * No request can end the process (decisions §14): an unhandled rejection or an uncaught
 * exception is logged and counted in `process_errors_total` of every app of the process,
 * and the process keeps serving. Every hot path has its own handler; this is the net
 * under them (a library's stray callback, an 'error' event nobody listens to).
 */
export function guardProcess(logger: Logger, metrics: MetricsService): () => void {
  const entry = { logger, metrics };
  apps.add(entry);
  if (!installed) {
    installed = true;
    process.on('unhandledRejection', (reason) => report('unhandledRejection', reason));
    process.on('uncaughtException', (err) => report('uncaughtException', err));
  }
  return () => apps.delete(entry);
}
