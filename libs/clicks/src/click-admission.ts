import { invalidClickReason } from './enrich';
import { ClickCapturedJob, unpackClickBatch } from '@dl/platform/click-codec';

/** A payload no retry can make valid: the consumer fails its job alone, without retries. */
export class MalformedClickError extends Error {
  override readonly name = 'MalformedClickError';
}

/** The one click of a `click.captured` job (the former transport), or MalformedClickError. */
export function admitClick(payload: unknown): ClickCapturedJob {
  const invalid = invalidClickReason(payload);
  if (invalid) throw new MalformedClickError(`Malformed click: ${invalid}`);
  return payload as ClickCapturedJob;
}

/**
 * The valid clicks of a `click.batch` job (packed, or `{clicks: [...]}`). A malformed click is
 * dropped (reported through `onMalformed`) and its neighbours kept: retrying the job would never
 * make it valid. A payload in neither form is MalformedClickError (the job fails alone).
 */
export function admitClickBatch(payload: unknown, onMalformed: (index: number, reason: string) => void): ClickCapturedJob[] {
  const clicks = unpackClickBatch(payload);
  if (!clicks) throw new MalformedClickError('Malformed click batch: clicks is not an array');
  const valid: ClickCapturedJob[] = [];
  for (let index = 0; index < clicks.length; index++) {
    const invalid = invalidClickReason(clicks[index]);
    if (invalid) onMalformed(index, invalid);
    else valid.push(clicks[index] as ClickCapturedJob);
  }
  return valid;
}

/**
 * Bounds the clicks a consumer holds, counted in clicks rather than jobs: work is admitted once
 * its clicks fit under `limit` (always when nothing else is admitted, so one oversized job still
 * runs), and `jobsToHold` sizes the consumer's job concurrency to the clicks per job seen, so a
 * backlog of large jobs is not fetched many times over while it waits for room.
 */
export class ClicksInFlight {
  private inFlight = 0;
  private waiting: Array<() => void> = [];
  /** Moving average of clicks per admitted job (0: none seen yet). */
  private clicksPerJob = 0;

  constructor(
    readonly limit: number,
    private readonly maxJobs: number,
  ) {}

  get clicks(): number {
    return this.inFlight;
  }

  /** Runs `fn` once `clicks` fit under the limit. */
  async admitted<T>(clicks: number, fn: () => Promise<T>): Promise<T> {
    this.clicksPerJob = this.clicksPerJob ? this.clicksPerJob + (clicks - this.clicksPerJob) * 0.1 : clicks;
    while (this.inFlight > 0 && this.inFlight + clicks > this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight += clicks;
    try {
      return await fn();
    } finally {
      this.inFlight -= clicks;
      // Each waiter re-checks the room it needs.
      for (const wake of this.waiting.splice(0)) wake();
    }
  }

  /**
   * Jobs worth holding: enough to fill the limit plus a quarter more waiting (the next clicks
   * ready when room frees), at most `maxJobs`, at least 2.
   */
  jobsToHold(): number {
    return Math.max(2, Math.min(this.maxJobs, Math.ceil((this.limit * 1.25) / Math.max(1, this.clicksPerJob))));
  }
}
