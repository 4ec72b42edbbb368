/**
 * POST /api/links, one link per request (goal: over 1,000 per second on this machine).
 * autocannon on loopback against the api in a child process, bounded by --seconds (at most 20).
 * Every create also publishes its invalidation and queues its link.created event.
 *
 *   node tools/scripts/run.js bench/links-create.ts [--seconds 10] [--connections 16]
 */
import os from 'node:os';
import { arg, autocannon, cpuPerRequest, log, startLinksBench } from './links-support';

async function main(): Promise<void> {
  const seconds = Math.min(arg('seconds', 10), 20);
  const connections = arg('connections', 16);
  const bench = await startLinksBench();
  try {
    const body = JSON.stringify({ templateId: bench.org.template.id, originalUrl: 'https://example.com/single?x=1', title: 'Bench link' });
    await autocannon({ url: `${bench.url}/api/links`, method: 'POST', headers: bench.auth, body, connections, amount: 500 });
    const before = await bench.env.prisma.link.count({ where: { organizationId: bench.org.organization.id } });
    const cpuBefore = await bench.cpuMs();
    const result = await autocannon({ url: `${bench.url}/api/links`, method: 'POST', headers: bench.auth, body, connections, duration: seconds });
    const cpuAfter = await bench.cpuMs();
    const after = await bench.env.prisma.link.count({ where: { organizationId: bench.org.organization.id } });
    log('done', { created: after - before });
    process.stdout.write(
      `${JSON.stringify({
        bench: 'POST /api/links',
        connections,
        seconds,
        requests: result.requests.total,
        non2xx: result.non2xx,
        errors: result.errors,
        createdPerSec: Math.round((after - before) / seconds),
        reqPerSec: result.requests.average,
        latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
        cpuMsPerCreate: cpuPerRequest(cpuBefore, cpuAfter, after - before),
        loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
      }, null, 2)}\n`,
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
