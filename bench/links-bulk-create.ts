/**
 * POST /api/links/bulk-create with 100 links per request (goal: under 150 ms).
 * Sequential timed requests on loopback against the api in a child process,
 * bounded by --seconds (at most 20).
 *
 *   node tools/scripts/run.js bench/links-bulk-create.ts [--requests 50] [--seconds 15]
 */
import { performance } from 'node:perf_hooks';
import { arg, log, percentile, startLinksBench } from './links-support';

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
    // Warm-up (JIT, connection pools).
    for (let i = 0; i < 3; i++) await fetch(`${bench.url}/api/links/bulk-create`, { method: 'POST', headers: bench.auth, body: body(-i - 1) });
    const times: number[] = [];
    const until = performance.now() + seconds * 1000;
    for (let i = 0; i < requests && performance.now() < until; i++) {
      const payload = body(i);
      const t = performance.now();
      const res = await fetch(`${bench.url}/api/links/bulk-create`, { method: 'POST', headers: bench.auth, body: payload });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (res.status !== 201) throw new Error(`bulk-create answered ${res.status}`);
    }
    times.sort((a, b) => a - b);
    const created = await bench.env.prisma.link.count({ where: { organizationId: bench.org.organization.id } });
    log('done', { created });
    const r = (x: number) => Math.round(x * 10) / 10;
    process.stdout.write(
      `${JSON.stringify({ bench: 'POST /api/links/bulk-create (100 links)', requests: times.length, latencyMs: { p50: r(percentile(times, 50)), p90: r(percentile(times, 90)), p99: r(percentile(times, 99)), max: r(times[times.length - 1]) } }, null, 2)}\n`,
    );
  } finally {
    await bench.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
