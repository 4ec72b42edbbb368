/**
 * GET /api/links for an organization with 25,000 links (goal: under 300 ms, memory flat).
 * Links are seeded with SQL; the api runs in a child process; autocannon measures.
 *
 *   node tools/scripts/run.js bench/links-list.ts [--links 25000] [--seconds 10] [--connections 2]
 */
import os from 'node:os';
import { arg, autocannon, cpuPerRequest, log, startLinksBench } from './links-support';

async function main(): Promise<void> {
  const links = arg('links', 25_000);
  const seconds = Math.min(arg('seconds', 10), 20);
  const connections = arg('connections', 2);
  const bench = await startLinksBench();
  try {
    const org = bench.org;
    await bench.env.prisma.$executeRaw`
      INSERT INTO links (organization_id, user_id, template_id, short_code, original_url, title, click_count, created_at)
      SELECT ${org.organization.id}::uuid, ${org.owner.user.id}::uuid, ${org.template.id}::uuid,
        'bl' || lpad(g::text, 7, '0'), 'https://example.com/landing/' || g, 'Link number ' || g, g % 1000,
        now() - g * interval '1 minute'
      FROM generate_series(1, ${links}) g`;
    await bench.env.prisma.$executeRaw`ANALYZE links`;
    const first = await fetch(`${bench.url}/api/links`, { headers: bench.auth });
    const body = await first.text();
    const count = (JSON.parse(body) as unknown[]).length;
    log('seeded', { links: count, bytes: body.length });
    const rssBefore = bench.rssMb();
    const cpuBefore = await bench.cpuMs();
    const result = await autocannon({ url: `${bench.url}/api/links`, headers: bench.auth, connections, duration: seconds });
    const cpuAfter = await bench.cpuMs();
    const rssAfter = bench.rssMb();
    const out = {
      bench: 'GET /api/links',
      links: count,
      responseMB: Math.round((body.length / 1024 / 1024) * 10) / 10,
      connections,
      seconds,
      requests: result.requests.total,
      non2xx: result.non2xx,
      reqPerSec: result.requests.average,
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      cpuMsPerRequest: cpuPerRequest(cpuBefore, cpuAfter, result.requests.total),
      apiRssMb: { before: rssBefore, after: rssAfter },
      loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
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
