import { Counter, Histogram, Registry } from 'prom-client';
import { HTTP_DURATION_BUCKETS, HttpRequestMetrics } from './http-metrics';

/** What the apps exposed before: a prom-client Counter and Histogram with the same labels. */
function promClient() {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const counter = new Counter({ name: 'http_requests_total', help: 'HTTP requests by method, route and status', labelNames, registers: [registry] });
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames,
    buckets: [...HTTP_DURATION_BUCKETS],
    registers: [registry],
  });
  const record = (method: string, route: string, status: number, seconds: number) => {
    const labels = { method, route, status: String(status) };
    counter.inc(labels);
    histogram.observe(labels, seconds);
  };
  return { registry, record };
}

describe('HttpRequestMetrics', () => {
  // Every bucket edge, values between and beyond them, several series in a mixed order.
  const seconds = [0, 0.0004, ...HTTP_DURATION_BUCKETS, ...HTTP_DURATION_BUCKETS.map((b) => b * 1.5), 3, 12.25];
  const requests = seconds.flatMap((s, i) => [
    ['GET', '/:code', 302, s],
    ['HEAD', '/:code', 302, s / 2],
    ['GET', i % 2 ? '/:code' : '/health', i % 3 ? 200 : 404, s * 0.7],
    ['POST', '/v1/events', i % 4 ? 202 : 400, s + 0.0001],
  ] as const);

  it('renders exactly what prom-client rendered for the same requests', async () => {
    const before = promClient();
    const registry = new Registry();
    const after = new HttpRequestMetrics(registry);
    for (const [method, route, status, s] of requests) {
      before.record(method, route, status, s);
      after.record(method, route, status, s);
    }
    const text = await registry.metrics();
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.001",method="GET",route="/:code",status="302"}');
    expect(text).toBe(await before.registry.metrics());
    const json = async (r: Registry) => JSON.parse(JSON.stringify(await r.getMetricsAsJSON())) as unknown;
    expect(await json(registry)).toEqual(await json(before.registry));
  });

  it('starts empty, and again after a reset', async () => {
    const registry = new Registry();
    const metrics = new HttpRequestMetrics(registry);
    expect(await registry.metrics()).toBe(await promClient().registry.metrics());
    metrics.record('GET', '/:code', 302, 0.002);
    registry.resetMetrics();
    expect(await registry.metrics()).toBe(await promClient().registry.metrics());
  });
});
