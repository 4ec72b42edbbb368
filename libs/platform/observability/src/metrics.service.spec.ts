import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MetricsService } from './metrics.service';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** How many garbage collections the app's `nodejs_gc_duration_seconds` has seen. */
async function gcCount(metrics: MetricsService): Promise<number> {
  const metric = await metrics.registry.getSingleMetric('nodejs_gc_duration_seconds')?.get();
  const values = (metric?.values ?? []) as Array<{ metricName?: string; value: number }>;
  return values.filter((v) => v.metricName === 'nodejs_gc_duration_seconds_count').reduce((n, v) => n + v.value, 0);
}

/** A collection, then time for the performance observers' callbacks (they run later). */
async function collect(): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('MetricsService', () => {
  it("counts garbage collections while it runs, and stops observing once the app closes (an observer left behind kept the app's whole module graph alive)", async () => {
    const metrics = new MetricsService();
    await collect();
    const seen = await gcCount(metrics);
    expect(seen).toBeGreaterThan(0);

    metrics.onModuleDestroy();
    // What was queued before the disconnect has landed after this.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = await gcCount(metrics);
    await collect();
    await collect();
    expect(await gcCount(metrics)).toBe(closed);
  });
});
