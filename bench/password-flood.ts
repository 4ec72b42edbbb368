/**
 * Another link's redirect p99 during 1,000 parallel wrong passwords, with and without hashing (docs/performance.md).
 *   node tools/scripts/run.js bench/password-flood.ts [--seconds 4] [--rounds 3] [--connections 8]
 */
import { hashSecret } from '@dl/platform/http';
import { startEdgeBench } from './edge';
import { arg, log, median, print, round, runBench, sleep, VISIT_HEADERS, wrk, WrkResult } from './kit';

const TRIES = 1000;

/** 1,000 parallel wrong passwords on `code`, each from its own IP: the statuses tallied and how long the burst took. */
type Burst = { statuses: Record<number, number>; ms: number };
async function burst(url: string, code: string, round: number): Promise<Burst> {
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: TRIES }, (_, i) =>
      fetch(`${url}/${code}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'cf-connecting-ip': `100.${64 + round}.${i >> 8}.${i & 255}` },
        body: `password=wrong-${i}`,
      }).then(
        (r) => r.status,
        () => 0,
      ),
    ),
  );
  const tally: Record<number, number> = {};
  for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
  return { statuses: tally, ms: Math.round(performance.now() - started) };
}

runBench(async () => {
  const [seconds, rounds, connections] = [arg('seconds', 4), arg('rounds', 3), arg('connections', 8)];
  const edge = await startEdgeBench({
    links: 1 + rounds,
    config: { LOG_LEVEL: 'silent', TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip' },
    beforeApps: async (env, links) => {
      const passwordHash = await hashSecret('open sesame');
      await env.prisma.link.updateMany({ where: { shortCode: { in: links.links.slice(1).map((l) => l.shortCode) } }, data: { passwordHash } });
    },
  });
  try {
    const url = edge.redirect.url;
    const visit = () => wrk({ url, paths: [edge.paths[0]], headers: VISIT_HEADERS, connections, seconds });
    // While wrk runs: the burst starts after 0.5 s so the window holds it whole.
    const during = async (code: string, r: number) => {
      const load = visit();
      await sleep(500);
      const b = await burst(url, code, r);
      return { wrk: await load, burst: b };
    };
    await visit(); // warm-up
    const runs = { quiet: [] as WrkResult[], flood: [] as WrkResult[], floodNoHash: [] as WrkResult[] };
    const bursts = { flood: [] as Burst[], floodNoHash: [] as Burst[] };
    for (let r = 0; r < rounds; r++) {
      const code = edge.links[1 + r].shortCode;
      runs.quiet.push(await visit());
      for (const kind of ['flood', 'floodNoHash'] as const) {
        const d = await during(code, r);
        runs[kind].push(d.wrk);
        bursts[kind].push(d.burst);
      }
      log('round', { r, quiet: runs.quiet[r].latencyMs, flood: runs.flood[r].latencyMs, floodNoHash: runs.floodNoHash[r].latencyMs });
    }
    const p99 = (xs: WrkResult[]) => xs.map((x) => x.latencyMs.p99);
    const medianP99Ms = { quiet: median(p99(runs.quiet)), flood: median(p99(runs.flood)), floodNoHash: median(p99(runs.floodNoHash)) };
    print({
      bench: 'password-flood',
      connections,
      seconds,
      otherLinkP99Ms: { quiet: p99(runs.quiet), flood: p99(runs.flood), floodNoHash: p99(runs.floodNoHash) },
      medianP99Ms,
      floodMinusQuietMs: round(medianP99Ms.flood - medianP99Ms.quiet, 2),
      otherLinkReqPerSecond: { quiet: runs.quiet.map((q) => q.requestsPerSecond), flood: runs.flood.map((f) => f.requestsPerSecond) },
      bursts,
      errors: Object.values(runs).flat().reduce((n, x) => n + x.errors + x.notOk, 0),
    });
  } finally {
    await edge.stop();
  }
});
