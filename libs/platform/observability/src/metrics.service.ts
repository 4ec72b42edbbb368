import perfHooks, { type PerformanceObserver, type PerformanceObserverCallback } from 'node:perf_hooks';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { HttpRequestMetrics } from './http-metrics';

/**
 * prom-client's default metrics, and the PerformanceObservers they start (its GC histogram
 * observes `gc` entries and never disconnects). An observer stays registered with the process
 * for good, and its callback keeps its registry, and with it the app's whole module graph, alive
 * after the app closed (in tests, one graph per test file). The observers are caught as they are
 * made so the app can disconnect them on close.
 */
function collectDefaults(registry: Registry): PerformanceObserver[] {
  const observers: PerformanceObserver[] = [];
  const Original = perfHooks.PerformanceObserver;
  perfHooks.PerformanceObserver = class extends Original {
    constructor(callback: PerformanceObserverCallback) {
      super(callback);
      observers.push(this);
    }
  };
  try {
    collectDefaultMetrics({ register: registry });
  } finally {
    perfHooks.PerformanceObserver = Original;
  }
  return observers;
}

/**
 * Prometheus metrics of one app (its own Registry, so several apps can share a
 * process in tests and on a laptop). Served at GET /metrics.
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();

  /** `http_requests_total` and `http_request_duration_seconds`, recorded together per request. */
  readonly http = new HttpRequestMetrics(this.registry);

  readonly clicksCaptured = new Counter({
    name: 'clicks_captured_total',
    help: 'Clicks captured at the redirect edge and queued',
    registers: [this.registry],
  });

  readonly clicksFallback = new Counter({
    name: 'clicks_fallback_total',
    help: 'Clicks written to the durable fallback because the queue was unreachable',
    registers: [this.registry],
  });

  readonly jobOutcomes = new Counter({
    name: 'queue_jobs_total',
    help: 'Jobs processed by queue, job name and outcome',
    labelNames: ['queue', 'job', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly queueDepth = new Gauge({
    name: 'queue_depth',
    help: 'Jobs waiting, active, delayed or failed per queue',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
  });

  readonly processErrors = new Counter({
    name: 'process_errors_total',
    help: 'Unhandled promise rejections and uncaught exceptions caught by the process guard (kind)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly deadLetters = new Counter({
    name: 'dead_letters_total',
    help: 'Items a batch write refused on their own (data errors), recorded in dead_letters and dropped, by queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });

  private readonly collectors: Array<() => Promise<void>> = [];

  private readonly observers = collectDefaults(this.registry);

  onModuleDestroy(): void {
    for (const observer of this.observers) observer.disconnect();
  }

  /** Runs before each scrape (e.g. to read queue depths). */
  onCollect(collector: () => Promise<void>): void {
    this.collectors.push(collector);
  }

  async render(): Promise<string> {
    await Promise.allSettled(this.collectors.map((c) => c()));
    return this.registry.metrics();
  }
}
