import { WorkerHost } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Job, Worker } from 'bullmq';
import { withTimeout } from '@dl/platform/async';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { Dependency, infraDependency, reportOutage, reportRecovered } from '@dl/platform/observability';
import { RedisService } from '@dl/platform/redis';
import { onJobOutage } from './job-guard';

/** How often Postgres and Redis are probed (sooner after a job was handed back). */
export const PROBE_INTERVAL_MS = 1_000;
const PROBE_TIMEOUT_MS = 1_500;

/**
 * The worker's view of its dependencies. Every BullMQ worker of the app is paused (takes no new
 * job) while Postgres or Redis does not answer a probe, and resumed when both answer again; jobs
 * that hit the outage were handed back without spending an attempt (`guardJob`) and run then.
 * BullMQ workers' 'error' events become one warning per dependency per 30 s (no raw stack
 * traces), and a job that fails for good is logged once. At shutdown `closeWorkers` stops taking
 * jobs and waits for those in flight, before any module (click batcher, pools) closes.
 */
@Injectable()
export class DependencyGate implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Worker');
  private workers: Worker[] = [];
  private timer: NodeJS.Timeout | null = null;
  private probing: Promise<void> | null = null;
  private readonly down = new Set<Dependency>();
  private paused = false;
  private closing = false;
  private stopListening: (() => void) | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.workers = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .map((host) => host.worker);
    for (const worker of this.workers) {
      worker.on('error', (err: Error) => reportOutage(infraDependency(err, 'redis') ?? 'redis', err, `worker ${worker.name}`));
      worker.on('failed', (job: Job | undefined, err: Error) => {
        if (!job) return;
        const final = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
        if (!final) return;
        this.logger.error(
          { queue: worker.name, job: job.name, jobId: job.id, attemptsMade: job.attemptsMade, reason: err.message },
          'job failed for good',
        );
      });
    }
    this.stopListening = onJobOutage(() => void this.probe());
    this.timer = setInterval(() => void this.probe(), PROBE_INTERVAL_MS);
    this.timer.unref();
  }

  /** True while the workers are paused for an outage. */
  get isPaused(): boolean {
    return this.paused;
  }

  /** Probes Postgres and Redis once (one probe at a time) and pauses or resumes the workers. */
  probe(): Promise<void> {
    this.probing ??= this.check().finally(() => (this.probing = null));
    return this.probing;
  }

  private async check(): Promise<void> {
    const results = await Promise.allSettled([
      // On the pool itself: an ORM query would load Prisma's query compiler (~45 MB) in a worker that needs none.
      withTimeout(this.prisma.pool.query('SELECT 1'), PROBE_TIMEOUT_MS),
      withTimeout(this.redis.client.ping(), PROBE_TIMEOUT_MS),
    ]);
    const deps: Dependency[] = ['postgres', 'redis'];
    results.forEach((result, i) => {
      const dependency = deps[i];
      if (result.status === 'rejected') {
        this.down.add(dependency);
        reportOutage(dependency, result.reason, 'worker probe (jobs paused)');
      } else if (this.down.delete(dependency)) {
        reportRecovered(dependency);
      }
    });
    if (this.closing) return;
    if (this.down.size && !this.paused) {
      this.paused = true;
      this.logger.warn({ down: [...this.down] }, 'dependency down: workers paused');
      // Jobs in flight finish or are handed back on their own; no new job is taken.
      await Promise.allSettled(this.workers.map((w) => w.pause(true)));
    } else if (!this.down.size && this.paused) {
      this.paused = false;
      for (const w of this.workers) w.resume();
      this.logger.log('dependencies back: workers resumed');
    }
  }

  /**
   * Stops taking jobs and waits for those in flight (they complete, or are handed back without
   * spending an attempt), up to SHUTDOWN_TIMEOUT_MS; then force-closes (a job still running is
   * given back by BullMQ's stalled check).
   */
  async closeWorkers(): Promise<void> {
    this.closing = true;
    this.stop();
    const timeoutMs = Math.max(1_000, this.config.SHUTDOWN_TIMEOUT_MS - 3_000);
    const closed = Promise.allSettled(this.workers.map((w) => w.close()));
    const late = await withTimeout(closed, timeoutMs).then(
      () => false,
      () => true,
    );
    if (late) {
      this.logger.warn({ timeoutMs }, 'jobs still running at the shutdown deadline: force-closing the workers');
      await Promise.allSettled(this.workers.map((w) => w.close(true)));
    }
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopListening?.();
    this.stopListening = null;
  }

  onModuleDestroy(): void {
    this.stop();
  }
}
