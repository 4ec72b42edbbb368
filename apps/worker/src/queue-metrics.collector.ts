import { Injectable, OnModuleInit } from '@nestjs/common';
import { MetricsService } from '@dl/platform/observability';
import { JobQueue, Queues } from '@dl/platform/queue';

/** Publishes each queue's depth on every /metrics scrape. */
@Injectable()
export class QueueMetricsCollector implements OnModuleInit {
  constructor(
    private readonly metrics: MetricsService,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.metrics.onCollect(async () => {
      for (const name of Object.values(Queues)) {
        const counts = await this.jobs.queue(name).getJobCounts('waiting', 'active', 'delayed', 'failed');
        for (const [state, n] of Object.entries(counts)) this.metrics.queueDepth.set({ queue: name, state }, n);
      }
    });
  }
}
