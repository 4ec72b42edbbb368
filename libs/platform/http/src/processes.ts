import cluster, { Worker } from 'node:cluster';
import { Logger } from '@nestjs/common';

const logger = new Logger('Processes');

/** A process that dies sooner than this after its start counts as a crash loop (slower restarts). */
const QUICK_DEATH_MS = 5_000;
const MAX_RESTART_DELAY_MS = 10_000;

/**
 * Runs an app as `processes` processes (WEB_CONCURRENCY, docs/decisions/platform.md) with
 * `node:cluster`: the primary forks them and does nothing else; they share the app's port (the
 * primary hands each new connection to the next process), so 2 redirect processes answer behind
 * one address with no proxy. Everything they share (click queue, caches, rate limits, caps, webhook
 * lanes, schedules) is in Redis or Postgres already, exactly as for separate hosts.
 *
 * The primary restarts a process that dies (after 1 s, slower in a crash loop) and, on SIGTERM,
 * passes it on and exits when every process has shut down gracefully (SIGINT from a terminal
 * reaches every process of the group by itself). With `processes` 1 it just runs `start`.
 */
export function runProcesses(app: string, processes: number, start: () => Promise<void>, shutdownTimeoutMs = 25_000): void {
  if (processes <= 1 || cluster.isWorker) {
    start().catch((err: unknown) => {
      process.stderr.write(`[${app}] failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
    return;
  }
  let stopping = false;
  const startedAt = new Map<Worker, number>();
  let quickDeaths = 0;
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
  };
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
      return;
    }
    quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
    const delay = Math.min(1000 * 2 ** Math.max(0, quickDeaths - 1), MAX_RESTART_DELAY_MS);
    logger.error({ app, pid: worker.process.pid, code, signal, restartInMs: delay }, 'process died: restarting it');
    setTimeout(() => !stopping && fork(), delay).unref();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log({ app, signal, processes: Object.keys(cluster.workers ?? {}).length }, 'stopping every process');
    // SIGINT from a terminal already reached the whole process group: a second one would force an exit.
    if (signal === 'SIGTERM') for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => {
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs + 5_000).unref();
    if (!Object.keys(cluster.workers ?? {}).length) process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  logger.log({ app, processes, pid: process.pid }, 'starting processes');
  for (let i = 0; i < processes; i++) fork();
}
