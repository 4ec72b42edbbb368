/**
 * decisions §22, link passwords: 1,000 parallel wrong tries on one link (each from its own client
 * IP) must not move another link's redirect p99 by more than 2 ms. `wrk` drives the other link
 * (closed loop) on the production redirect while rounds alternate, in one session:
 *   - `quiet`: no flood;
 *   - `flood`: a burst of 1,000 parallel wrong tries on a fresh password link (its counters allow
 *     100 checks: 1 hashing + 32 queued, the rest answer 429 without hashing);
 *   - `floodNoHash`: the same burst on the same link again within its minute (all 429 from the
 *     counter, no hash): the cost of the requests alone, to tell scrypt from the host's load.
 *
 *   node tools/scripts/run.js bench/password-flood.ts [--seconds 4] [--rounds 3] [--connections 8]
 */
import { hashSecret } from '@dl/platform/http';
import { startEdgeBench } from './edge';
import { arg, log, median, print, round, runBench, sleep, VISIT_HEADERS, wrk, WrkResult } from './kit';

const TRIES = 1000;

/** 1,000 parallel wrong passwords on `code`, each from its own IP: the statuses tallied and how long the burst took. */
async function burst(url: string, code: string, round: number): Promise<{ statuses: Record<number, number>; ms: number }> {
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

async function main(): Promise<void> {
  const seconds = arg('seconds', 4);
  const rounds = arg('rounds', 3);
  const connections = arg('connections', 8);
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
    const other = edge.paths[0];
    const visit = () => wrk({ url, paths: [other], headers: VISIT_HEADERS, connections, seconds });
    // While wrk runs: the burst starts after 0.5 s so the window holds it whole.
    const during = async (code: string, r: number) => {
      const load = visit();
      await sleep(500);
      const b = await burst(url, code, r);
      return { wrk: await load, burst: b };
    };
    await visit(); // warm-up
    const quiet: WrkResult[] = [];
    const flood: Array<{ wrk: WrkResult; burst: { statuses: Record<number, number>; ms: number } }> = [];
    const floodNoHash: typeof flood = [];
    for (let r = 0; r < rounds; r++) {
      const code = edge.links[1 + r].shortCode;
      quiet.push(await visit());
      flood.push(await during(code, r));
      floodNoHash.push(await during(code, r));
      log('round', { r, quiet: quiet.at(-1)!.latencyMs, flood: flood.at(-1)!.wrk.latencyMs, floodNoHash: floodNoHash.at(-1)!.wrk.latencyMs });
    }
    const p99 = (xs: WrkResult[]) => xs.map((x) => x.latencyMs.p99);
    print({
      bench: 'password-flood',
      connections,
      seconds,
      otherLinkP99Ms: { quiet: p99(quiet), flood: p99(flood.map((f) => f.wrk)), floodNoHash: p99(floodNoHash.map((f) => f.wrk)) },
      medianP99Ms: {
        quiet: median(p99(quiet)),
        flood: median(p99(flood.map((f) => f.wrk))),
        floodNoHash: median(p99(floodNoHash.map((f) => f.wrk))),
      },
      floodMinusQuietMs: round(median(p99(flood.map((f) => f.wrk))) - median(p99(quiet)), 2),
      otherLinkReqPerSecond: { quiet: quiet.map((q) => q.requestsPerSecond), flood: flood.map((f) => f.wrk.requestsPerSecond) },
      bursts: { flood: flood.map((f) => f.burst), floodNoHash: floodNoHash.map((f) => f.burst) },
      errors: [...quiet, ...flood.map((f) => f.wrk), ...floodNoHash.map((f) => f.wrk)].reduce((n, x) => n + x.errors + x.notOk, 0),
    });
  } finally {
    await edge.stop();
  }
}

runBench(main);
