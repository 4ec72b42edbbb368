/**
 * POST /api/links, one link per request (goal: over 1,000 a second): `wrk` against the api's
 * production entry. Every create also publishes its invalidation and queues `link.created`.
 * Reports creates per second and CPU ms per create of the api and of Postgres.
 *
 *   node tools/scripts/run.js bench/links-create.ts [--seconds 10] [--connections 16]
 */
import { arg, log, print, runBench, wrk } from './kit';
import { cpuMsPer, startLinksBench } from './links-support';

async function main(): Promise<void> {
  const seconds = Math.min(arg('seconds', 10), 20);
  const connections = arg('connections', 16);
  const bench = await startLinksBench();
  try {
    const load = { url: `${bench.url}/api/links`, method: 'POST', headers: bench.auth, connections };
    const body = JSON.stringify({ templateId: bench.org.template.id, originalUrl: 'https://example.com/single?x=1', title: 'Bench link' });
    const links = () => bench.env.prisma.link.count({ where: { organizationId: bench.org.organization.id } });
    await wrk({ ...load, body, seconds: 2 });
    const before = await links();
    const cpuBefore = await bench.cpu();
    const r = await wrk({ ...load, body, seconds });
    const cpuAfter = await bench.cpu();
    const created = (await links()) - before;
    log('done', { created });
    print({
      bench: 'links-create',
      tool: `wrk -t1 -c${connections} -d${seconds}s`,
      createdPerSecond: Math.round(created / seconds),
      notOk: r.notOk,
      errors: r.errors,
      latencyMs: r.latencyMs,
      cpuMsPerCreate: cpuMsPer(cpuBefore, cpuAfter, created),
    });
  } finally {
    await bench.close();
  }
}

runBench(main);
