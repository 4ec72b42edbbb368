import { WorkerHost } from '@nestjs/bullmq';
import { OnModuleInit } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { MetricsService } from '@dl/platform/observability';
import { assertHandlers, JobMeta, QueueHandlers, QueueName } from '@dl/platform/queue';
import { guardJob } from '../resilience/job-guard';

/** Thrown (by `defer`) for a job put back to the delayed set on purpose: counted `deferred`, no attempt spent. */
export class DeferredJobError extends DelayedError {
  override readonly name = 'DelayedError';
  readonly deferred = true;
}

type AnyHandler = (payload: unknown, meta: JobMeta) => Promise<unknown>;

/**
 * The one job dispatcher of the worker. A processor names its queue and returns a handler per
 * job name of the registry (`QueueHandlers<Q>`: the compiler refuses a missing one, and the
 * handler map is checked against the registry at boot); this class runs the job's handler under
 * `guardJob` (an outage or a shutdown hands the job back without spending an attempt) and counts
 * every outcome in `queue_jobs_total` (completed, failed, handed_back, deferred). The rules
 * themselves live in domain services; a handler only adapts a payload to them. One processor per
 * queue: `assertOneProcessorPerQueue` refuses a worker app without one or with two.
 */
export abstract class QueueProcessor<Q extends QueueName> extends WorkerHost implements OnModuleInit {
  private handlerMap: QueueHandlers<Q> | null = null;

  protected constructor(
    readonly queue: Q,
    private readonly jobMetrics: MetricsService,
  ) {
    super();
  }

  /** Job name → handler, for every job name of the queue in the registry. */
  protected abstract handlers(): QueueHandlers<Q>;

  onModuleInit(): void {
    this.handlersOrThrow();
  }

  private handlersOrThrow(): QueueHandlers<Q> {
    if (!this.handlerMap) {
      const map = this.handlers();
      assertHandlers(this.queue, map);
      this.handlerMap = map;
    }
    return this.handlerMap;
  }

  async process(job: Job, token?: string): Promise<unknown> {
    const labels = { queue: this.queue, job: job.name };
    try {
      const handler = (this.handlersOrThrow() as Record<string, AnyHandler | undefined>)[job.name];
      if (!handler) throw new Error(`No handler for job "${job.name}" on queue "${this.queue}"`);
      const meta: JobMeta = { jobId: job.id ?? '', attemptsMade: job.attemptsMade };
      const result = await guardJob(job, token, () => this.run(job, token, () => handler(job.data, meta)));
      this.jobMetrics.jobOutcomes.inc({ ...labels, outcome: 'completed' });
      return result;
    } catch (err) {
      const outcome = err instanceof DeferredJobError ? 'deferred' : err instanceof DelayedError ? 'handed_back' : 'failed';
      this.jobMetrics.jobOutcomes.inc({ ...labels, outcome });
      throw err;
    }
  }

  /** Runs the handler; a processor overrides it to turn a domain error into `defer` (see the webhook drains). */
  protected run(_job: Job, _token: string | undefined, handle: () => Promise<unknown>): Promise<unknown> {
    return handle();
  }

  /** Puts the job back to the delayed set for `delayMs` without spending an attempt. */
  protected async defer(job: Job, token: string | undefined, delayMs: number): Promise<never> {
    await job.moveToDelayed(Date.now() + delayMs, token);
    throw new DeferredJobError();
  }
}
