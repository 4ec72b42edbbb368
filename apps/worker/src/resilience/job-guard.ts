import { DelayedError, Job } from 'bullmq';
import { Dependency, infraDependency, reportOutage } from '@dl/platform/observability';

/** Thrown for work the worker gives back unfinished (it is shutting down): the job runs again later, its attempt not spent. */
export class HandBackError extends Error {
  override readonly name = 'HandBackError';
}

/** First delay of a job handed back because a dependency was down; doubles per hand-back up to the cap. */
export const INFRA_RETRY_BASE_MS = 1_000;
export const INFRA_RETRY_MAX_MS = 30_000;

/** Delay before the `handBacks`-th run (0-based) of a job handed back: capped exponential with up to 20% jitter (shorter). */
export function infraRetryDelayMs(handBacks: number, random = Math.random()): number {
  const delay = Math.min(INFRA_RETRY_MAX_MS, INFRA_RETRY_BASE_MS * 2 ** Math.min(handBacks, 16));
  return Math.round(delay * (1 - 0.2 * random));
}

type OutageListener = (dependency: Dependency) => void;
const listeners = new Set<OutageListener>();

/** Called when a job was handed back because `dependency` failed (the worker's gate probes at once and pauses). */
export function onJobOutage(listener: OutageListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Runs a job's work. An infrastructure error (Postgres or Redis unreachable, a connection
 * terminated by a shutdown) or a hand-back never spends an attempt: the job goes back to the
 * delayed set with a capped backoff (BullMQ's `moveToDelayed` does not count an attempt), so an
 * outage of any length loses nothing and the job runs once the dependency is back. If Redis
 * itself is down the move fails too: the job's lock lapses and BullMQ's stalled check gives it
 * back. Every other error is the job's own and spends an attempt as usual.
 */
export async function guardJob<T>(job: Job, token: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DelayedError) throw err;
    const handBack = err instanceof HandBackError;
    const dependency = handBack ? null : infraDependency(err, 'postgres');
    if (!handBack && !dependency) throw err;
    // Runs of this job that ended neither completed nor failed (hand-backs, stalls).
    const handBacks = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
    if (dependency) {
      reportOutage(dependency, err, `${job.queueName} jobs (handed back without spending an attempt)`);
      for (const listener of listeners) listener(dependency);
    }
    try {
      await job.moveToDelayed(Date.now() + (handBack ? 0 : infraRetryDelayMs(handBacks)), token);
    } catch {
      // Redis down: the lock lapses and the stalled check gives the job back.
    }
    throw new DelayedError();
  }
}
