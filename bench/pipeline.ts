/**
 * The redirect and the worker end to end: clicks stored per second, CPU per click, p99 at half rate (docs/performance.md).
 *   node tools/scripts/run.js bench/pipeline.ts [--seconds 10] [--connections 50] [--links 100] [--runs 3] [--varied]
 */
import { USER_AGENTS } from '@dl/testing';
import { capturedClicks, startEdgeBench } from './edge';
import { arg, cpuSeconds, databaseCpuSeconds, drained, flag, log, median, memoryMb, print, round, runBench, storedClicks, VISIT_HEADERS, wrk } from './kit';
import { openLoadRedirects } from './open-load';

const VARIED = flag('varied');
const BROWSERS = [USER_AGENTS.iPhone, USER_AGENTS.androidPhone, USER_AGENTS.iPad, USER_AGENTS.windowsChrome, USER_AGENTS.macSafari, USER_AGENTS.linuxFirefox];

/** The headers of visit `i`: one browser, or with --varied one of many visitors. */
function headersFor(i: number): Record<string, string> {
  if (!VARIED) return VISIT_HEADERS;
  const k = i % 50_000;
  return {
    'user-agent': BROWSERS[i % BROWSERS.length],
    'accept-language': i % 3 ? 'en-US,en;q=0.9' : 'de-DE,de;q=0.8',
    'x-forwarded-for': `${1 + (k % 223)}.${(k >> 8) % 256}.${(k >> 3) % 256}.${k % 256}`,
  };
}

/** wrk's header sets: one browser, or with --varied 5,000 visitors in turn. */
const fullLoadHeaders = () => (VARIED ? { headerSets: Array.from({ length: 5000 }, (_, i) => headersFor(i * 10)) } : { headers: VISIT_HEADERS });

runBench(async () => {
  const [seconds, connections, runs] = [arg('seconds', 10), arg('connections', 50), arg('runs', 3)];
  const edge = await startEdgeBench({ links: arg('links', 100), worker: true, config: VARIED ? { TRUSTED_CLIENT_IP_HEADER: 'x-forwarded-for' } : {} });
  const { env, redirect, bare, paths } = edge;
  const worker = edge.worker!;
  try {
    const count = () => storedClicks(env);
    const halfLoad = async (url: string, rate: number) => {
      const h = await openLoadRedirects({ url, paths, headers: headersFor, rate, seconds, maxSockets: connections });
      if (h.ok !== h.sent || h.errors) throw new Error(`half load: ${h.ok} 302s of ${h.sent} sent, ${h.errors} errors`);
      return h;
    };
    log('warm-up');
    await wrk({ url: redirect.url, paths, ...fullLoadHeaders(), connections: 16, seconds: 2 });
    await openLoadRedirects({ url: bare.url, paths, headers: headersFor, rate: 4000, seconds: 2, maxSockets: connections });
    let served = await capturedClicks(redirect.url);
    await drained(count, served);

    const rows: Array<Record<string, number>> = [];
    for (let run = 1; run <= runs; run++) {
      log('full load', { run, seconds, connections });
      const cpuNow = async () => ({ redirect: cpuSeconds(redirect.proc.pid!), worker: cpuSeconds(worker.proc.pid!), postgres: await databaseCpuSeconds(env.prisma), redis: cpuSeconds(edge.redisPid) });
      const cpu0 = await cpuNow();
      const started = Date.now();
      const before = served;
      const full = await wrk({ url: redirect.url, paths, ...fullLoadHeaders(), connections, seconds });
      if (full.notOk || full.errors) throw new Error(`full load: ${full.notOk} answers other than 302, ${full.errors} errors`);
      const loadSeconds = (Date.now() - started) / 1000;
      served = await capturedClicks(redirect.url);
      const clicks = served - before;
      const drainSeconds = await drained(count, served);
      const cpu1 = await cpuNow();

      const halfRate = Math.round(clicks / loadSeconds / 2);
      log('half load', { run, rate: halfRate });
      const half = await halfLoad(redirect.url, halfRate);
      served = await capturedClicks(redirect.url);
      await drained(count, served);
      log('floor: bare server at the half rate', { run, rate: halfRate });
      const floor = await halfLoad(bare.url, halfRate);
      const row = {
        run,
        redirectsPerSecond: Math.round(clicks / loadSeconds),
        fullP99Ms: full.latencyMs.p99,
        drainAfterLoadSeconds: round(drainSeconds),
        clicksPerSecondEndToEnd: Math.round(clicks / (loadSeconds + drainSeconds)),
        ...Object.fromEntries((['redirect', 'worker', 'postgres', 'redis'] as const).map((k) => [`${k}CpuMicrosPerClick`, Math.round(((cpu1[k] - cpu0[k]) * 1e6) / clicks)])),
        halfRateRps: halfRate,
        halfP50Ms: half.latency.p50,
        halfP99Ms: half.latency.p99,
        bareHalfP99Ms: floor.latency.p99,
      };
      rows.push(row);
      log('run', row);
    }
    const medians = Object.fromEntries(Object.keys(rows[0]).filter((k) => k !== 'run').map((k) => [k, median(rows.map((r) => r[k]))]));
    const peakRssMb = { redirect: memoryMb(redirect.proc.pid!).peak, worker: memoryMb(worker.proc.pid!).peak };
    print({ bench: 'pipeline', seconds, connections, links: paths.length, varied: VARIED, runs: rows, medians, peakRssMb, exact: true });
  } finally {
    await edge.stop();
  }
});
