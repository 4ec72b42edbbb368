import type { Metric, Registry } from 'prom-client';

/** `http_request_duration_seconds` buckets (seconds). */
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5] as const;

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative); one past the last bound is none (only +Inf). */
  inBucket: number[];
}

/**
 * `http_requests_total` and `http_request_duration_seconds` recorded together: a request finds
 * its series by route, method and status in nested maps (no label object, no label hash per
 * metric per request, as prom-client's `inc`/`observe` do). The two registry entries render
 * exactly what a prom-client Counter and Histogram with the same labels would (same names,
 * help, label order, buckets, series order: first recorded first).
 */
export class HttpRequestMetrics {
  private readonly byRoute = new Map<string, Map<string, Map<number, Series>>>();
  private series: Series[] = [];

  constructor(registry: Registry) {
    const reset = () => {
      this.byRoute.clear();
      this.series = [];
    };
    const view = (name: string, help: string, type: 'counter' | 'histogram', values: () => unknown[]) => {
      const head = { name, help, type, aggregator: 'sum' };
      // Not a prom-client class: the registry only reads name/type and calls get() and reset().
      registry.registerMetric({ ...head, get: async () => ({ ...head, values: values() }), reset } as unknown as Metric);
    };
    view('http_requests_total', 'HTTP requests by method, route and status', 'counter', () => this.series.map((s) => ({ value: s.count, labels: s.labels })));
    view('http_request_duration_seconds', 'HTTP request latency by method, route and status', 'histogram', () => this.series.flatMap(histogramValues));
  }

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (!byMethod) this.byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, count: 0, sum: 0, inBucket: new Array<number>(HTTP_DURATION_BUCKETS.length + 1).fill(0) };
      byStatus.set(status, series);
      this.series.push(series);
    }
    series.count += 1;
    series.sum += seconds;
    let i = 0;
    while (i < HTTP_DURATION_BUCKETS.length && seconds > HTTP_DURATION_BUCKETS[i]) i++;
    series.inBucket[i] += 1;
  }
}

const BUCKET = 'http_request_duration_seconds_bucket';

type Value = { value: number; labels: Record<string, string | number>; metricName: string; exemplar?: null };

/** A series as prom-client's Histogram exports it: cumulative buckets, +Inf, _sum, _count. */
function histogramValues(s: Series): Value[] {
  const out: Value[] = [];
  let acc = 0;
  HTTP_DURATION_BUCKETS.forEach((le, i) => {
    acc += s.inBucket[i];
    out.push({ value: acc, labels: { le, ...s.labels }, metricName: BUCKET, exemplar: null });
  });
  out.push(
    { value: s.count, labels: { le: '+Inf', ...s.labels }, metricName: BUCKET, exemplar: null },
    { value: s.sum, labels: { ...s.labels }, metricName: 'http_request_duration_seconds_sum' },
    { value: s.count, labels: { ...s.labels }, metricName: 'http_request_duration_seconds_count' },
  );
  return out;
}
