/**
 * POST /api/links/bulk-create with 100 links a request (goal: under 150 ms): sequential timed
 * requests against the api's production entry, bounded by --seconds.
 *
 *   node tools/scripts/run.js bench/links-bulk-create.ts [--requests 50] [--seconds 15]
 */
import { arg, print, round, runBench } from './kit';
import { percentile, startLinksBench } from './links-support';

async function main(): Promise<void> {
  const requests = arg('requests', 50);
  const seconds = Math.min(arg('seconds', 15), 20);
  const bench = await startLinksBench();
  try {
    const body = (i: number) =>
      JSON.stringify({
        links: Array.from({ length: 100 }, (_, j) => ({
          templateId: bench.org.template.id,
          originalUrl: `https://example.com/bulk/${i}/${j}?utm=x`,
          title: `Bulk ${i}-${j}`,
          utmParameters: { utm_source: 'bench', utm_campaign: `c${i}` },
        })),
      });
    const post = async (i: number) => {
      const res = await fetch(`${bench.url}/api/links/bulk-create`, { method: 'POST', headers: bench.auth, body: body(i) });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`bulk-create answered ${res.status}`);
    };
    for (let i = 1; i <= 3; i++) await post(-i);
    const times: number[] = [];
    const until = performance.now() + seconds * 1000;
    for (let i = 0; i < requests && performance.now() < until; i++) {
      const t = performance.now();
      await post(i);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    print({
      bench: 'links-bulk-create',
      requests: times.length,
      latencyMs: { p50: round(percentile(times, 50)), p90: round(percentile(times, 90)), p99: round(percentile(times, 99)), max: round(times[times.length - 1]) },
    });
  } finally {
    await bench.close();
  }
}

runBench(main);
