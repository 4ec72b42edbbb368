/**
 * `GET /api/links` of an organization with many links: req/s, latency, CPU per request, memory (docs/performance.md).
 *   node tools/scripts/run.js bench/links-list.ts [--links 25000] [--seconds 10] [--connections 2]
 */
import { arg, cpuMsPer, log, memoryMb, print, round, runBench, startApiBench, wrk } from './kit';

runBench(async () => {
  const links = arg('links', 25_000);
  const seconds = Math.min(arg('seconds', 10), 20);
  const connections = arg('connections', 2);
  const bench = await startApiBench();
  try {
    const { organization, owner, template } = bench.org;
    await bench.env.prisma.$executeRaw`
      INSERT INTO links (organization_id, user_id, template_id, short_code, original_url, title, click_count, created_at)
      SELECT ${organization.id}::uuid, ${owner.user.id}::uuid, ${template.id}::uuid,
        'bl' || lpad(g::text, 7, '0'), 'https://example.com/landing/' || g, 'Link number ' || g, g % 1000,
        now() - g * interval '1 minute'
      FROM generate_series(1, ${links}) g`;
    await bench.env.prisma.$executeRaw`ANALYZE links`;
    const body = await (await fetch(`${bench.url}/api/links`, { headers: bench.auth })).text();
    log('seeded', { links: (JSON.parse(body) as unknown[]).length, bytes: body.length });
    const rssBefore = memoryMb(bench.api.proc.pid!).rss;
    const { result: r, cpuMs } = await cpuMsPer(bench, () => wrk({ url: `${bench.url}/api/links`, headers: bench.auth, connections, seconds }), (x) => x.requests);
    print({
      bench: 'links-list',
      tool: `wrk -t1 -c${connections} -d${seconds}s`,
      links,
      responseMB: round(body.length / 1024 / 1024),
      requestsPerSecond: r.requestsPerSecond,
      notOk: r.notOk,
      latencyMs: r.latencyMs,
      cpuMsPerRequest: cpuMs,
      apiRssMb: { before: rssBefore, after: memoryMb(bench.api.proc.pid!).rss },
    });
  } finally {
    await bench.close();
  }
});
