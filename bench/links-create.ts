/**
 * `POST /api/links` per second with the CPU per create, then bulk creates of 100 links (docs/performance.md).
 *   node tools/scripts/run.js bench/links-create.ts [--seconds 10] [--connections 16] [--requests 50] [--bulk-seconds 15]
 */
import { arg, cpuMsPer, print, runBench, startApiBench, timings, wrk } from './kit';

runBench(async () => {
  const seconds = Math.min(arg('seconds', 10), 20);
  const connections = arg('connections', 16);
  const bench = await startApiBench();
  try {
    const templateId = bench.org.template.id;
    const links = () => bench.env.prisma.link.count({ where: { organizationId: bench.org.organization.id } });
    const body = JSON.stringify({ templateId, originalUrl: 'https://example.com/single?x=1', title: 'Bench link' });
    const load = { url: `${bench.url}/api/links`, method: 'POST', headers: bench.auth, body, connections };
    await wrk({ ...load, seconds: 2 });
    const before = await links();
    const { result: r, cpuMs } = await cpuMsPer(bench, () => wrk({ ...load, seconds }), async () => (await links()) - before);
    const created = (await links()) - before;

    const bulk = async (i: number) => {
      const batch = Array.from({ length: 100 }, (_, j) => ({ templateId, originalUrl: `https://example.com/bulk/${i}/${j}?utm=x`, title: `Bulk ${i}-${j}`, utmParameters: { utm_source: 'bench', utm_campaign: `c${i}` } }));
      const t = performance.now();
      const res = await fetch(`${bench.url}/api/links/bulk-create`, { method: 'POST', headers: bench.auth, body: JSON.stringify({ links: batch }) });
      await res.arrayBuffer();
      if (res.status !== 201) throw new Error(`bulk-create answered ${res.status}`);
      return performance.now() - t;
    };
    for (let i = 1; i <= 3; i++) await bulk(-i);
    const times: number[] = [];
    const until = performance.now() + Math.min(arg('bulk-seconds', 15), 20) * 1000;
    for (let i = 0; i < arg('requests', 50) && performance.now() < until; i++) times.push(await bulk(i));
    print({
      bench: 'links-create',
      tool: `wrk -t1 -c${connections} -d${seconds}s; bulk creates one at a time`,
      createdPerSecond: Math.round(created / seconds),
      notOk: r.notOk,
      errors: r.errors,
      latencyMs: r.latencyMs,
      cpuMsPerCreate: cpuMs,
      bulkCreate100: { requests: times.length, latencyMs: timings(times) },
    });
  } finally {
    await bench.close();
  }
});
