/**
 * Stalled-job handling of the idempotent queues (clicks, ingest): a job whose worker died
 * (kill -9, OOM, a lost host) is put back to wait up to 5 times instead of failing on its
 * second stall (BullMQ's default maxStalledCount is 1), and the stalled check runs every 10 s
 * instead of 30 s, so a dead worker's jobs are back in under 40 s (lock 30 s + check 10 s).
 * Safe because a replay stores nothing twice (click ids and event ids decide). Decisions:
 * "Second release: outages and shutdown".
 */
export const STALLED_JOB_OPTIONS = { maxStalledCount: 5, stalledInterval: 10_000 } as const;
