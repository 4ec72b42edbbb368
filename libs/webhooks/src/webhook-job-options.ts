import { JobsOptions } from 'bullmq';
import { AppConfig } from '@dl/platform/config';

/** First attempt + 3 retries (spec: "3 retry attempts"). */
export const WEBHOOK_MAX_ATTEMPTS = 4;

/**
 * Options of a `webhook.deliver` job: the delivery id as job id (a replayed fan-out cannot queue
 * it twice), 3 retries with exponential backoff (base, 2×, 4×) and jitter. LIFO: a delivery due
 * now goes ahead of events still waiting for fan-out, so deliveries flow while a backlog of events
 * is being expanded (receivers must not rely on order anyway; `webhook-id` identifies each event).
 */
export function deliverJobOptions(config: AppConfig, deliveryId: string): JobsOptions {
  return {
    jobId: deliveryId,
    lifo: true,
    attempts: WEBHOOK_MAX_ATTEMPTS,
    backoff: { type: 'exponential', delay: config.WEBHOOK_RETRY_BASE_MS, jitter: 0.3 },
    removeOnComplete: { count: 1000, age: 3600 },
    removeOnFail: { count: 5000, age: 7 * 24 * 3600 },
  };
}

/**
 * Options of a `webhook.drain` job (one per webhook with pending deliveries, see the rate gate):
 * FIFO on its own queue, so webhooks take turns; its own failures (database or Redis down) are
 * retried with a short backoff, the deliveries it had claimed come back to their lane when their
 * lease ends.
 */
export function drainJobOptions(): JobsOptions {
  return {
    attempts: 10,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: true,
    removeOnFail: { count: 1000, age: 7 * 24 * 3600 },
  };
}

/** Delay before retry `attempt + 1` after attempt `attempt` failed: exponential from the base, up to 30% jitter (shorter). */
export function retryDelayMs(config: AppConfig, attempt: number, random = Math.random()): number {
  const delay = config.WEBHOOK_RETRY_BASE_MS * 2 ** (attempt - 1);
  return Math.round(delay * (1 - 0.3 * random));
}
