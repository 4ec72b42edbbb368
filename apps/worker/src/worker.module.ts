import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AppConfig } from '@dl/platform/config';
import { PlatformModule } from '@dl/platform/http';
import { AuditModule } from '@dl/audit';
import { QueueModule } from '@dl/platform/queue';
import { ClicksWorkerModule } from './clicks/clicks-worker.module';
import { IngestWorkerModule } from './ingest/ingest-worker.module';
import { OneProcessorPerQueue } from './dispatch/one-processor-per-queue';
import { QueueMetricsCollector } from './queue-metrics.collector';
import { DependencyGate } from './resilience/dependency-gate';
import { ReportsWorkerModule } from './reports/reports-worker.module';
import { SafetyWorkerModule } from './safety/safety-worker.module';
import { WebhooksWorkerModule } from './webhooks/webhooks-worker.module';

/** BullMQ consumers and schedules; /health and /metrics on WORKER_PORT. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [DiscoveryModule, PlatformModule.forRoot(config), QueueModule, AuditModule, ReportsWorkerModule, ClicksWorkerModule, WebhooksWorkerModule, IngestWorkerModule, SafetyWorkerModule],
      providers: [OneProcessorPerQueue, QueueMetricsCollector, DependencyGate],
    };
  }
}
