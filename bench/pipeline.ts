/**
 * The whole pipeline on one machine: the redirect and the worker as separate production
 * processes (`apps/<app>/src/main.ts` through the require hook), each in a session of its own as
 * `npm start` runs them, on a private redis-server and their own database, the worker draining
 * while the load runs. For each run:
 *
 *   1. full load: autocannon for `--seconds` at `--connections`; then the time until every
 *      answered 302 is a stored click. Clicks per second end to end = clicks stored ÷ (load
 *      time + drain time after it). Exact counts are asserted: stored == answered 302s.
 *   2. half load: half the full-load rate as open-loop arrivals (Poisson, `bench/open-load.ts`),
 *      each latency counted from the request's scheduled send time, for p99. `--autocannon-half`
 *      measures it the earlier way instead: autocannon `overallRate`, which sends each
 *      connection's share of a second back to back at the start of the second (a full-speed
 *      burst, then idle), so its p99 is the full-load p99.
 *
 *   3. the floor: a bare `node:http` 302 server (`bare-server.ts`) under the same half-rate load,
 *      with the pipeline idle: what this machine and this generator allow at that rate.
 *
 * Resident memory of each process is sampled every 200 ms during load and drain (peak reported).
 * CPU per click is read from /proc for the redirect, the worker, Postgres (all its processes),
 * the private Redis and the load generator (this process) at full load, and for the worker and
 * Postgres at half rate too (load and drain).
 *
 *   node tools/scripts/run.js bench/pipeline.ts [--seconds 10] [--connections 50] [--links 100] [--runs 3] [--autocannon-half] [--stalls] [--varied] [--db-autogroup-nice 19] [--drain-last-cpu] [--realtime]
 *
 * `--varied`: visits as a crowd makes them rather than one browser: each from its own address
 * (`x-forwarded-for`, the redirect trusting it; 50,000 addresses in turn, most with a city in
 * GeoLite2) with one of six browsers. Every click then adds a visitor and its city's and region's
 * rollup rows, the database work real traffic brings and one browser on loopback does not.
 *
 * `--db-autogroup-nice <n>` (Linux, root): the operator's choice of a lower CPU weight for the
 * database on a host it shares with the edge (docs/decisions/operations.md, "The worker gives way"). Every
 * Postgres backend leads a session of its own, so each is an autogroup with a whole session's
 * weight; the bench sets each one's nice to n (re-applied every 200 ms for new backends) and back
 * to 0 at the end. It changes the host, not the service: its figures are reported as such.
 *
 * `--drain-last-cpu` (Linux; Postgres's processes need root): the drain confined to one core, an
 * operator's layout for a host the edge shares (a container's `cpuset`, systemd `CPUAffinity`):
 * the worker's threads and every Postgres process pinned to the last CPU for the whole run (new
 * backends inherit it from the postmaster), the redirect and the loader free to use all of them.
 * It changes the host, not the service: its figures are reported as such.
 *
 * `--realtime` (Linux, root): the latency path at real-time priority, the drain on what is left.
 * Every thread of the redirect at SCHED_FIFO 1 (`chrt -a -f`, what systemd's
 * `CPUSchedulingPolicy=fifo` does: an operator's setting), and this process's main thread (the
 * load generator) too, so that it stands for clients on other machines, which never wait for these
 * cores; the bare server of the floor at SCHED_FIFO 1 as well, so the floor is measured alike. A
 * woken request handler then preempts any ordinary task at once instead of waiting out the running
 * task's slice (up to a 4 ms tick; docs/performance.md). The worker and Postgres stay ordinary
 * tasks. It changes the host, not the service: its figures are reported as such. A diagnostic,
 * not a deployment: a Node process at SCHED_FIFO livelocks on a core it shares only with
 * real-time tasks (V8's sweeper keeps re-posting a task to the main thread while it waits for a
 * helper thread that never gets the core; seen with the whole bench confined to one CPU, the
 * redirect at 95% of it until killed), so it refuses to run on fewer than two CPUs.
 *
 * `--stalls` also records the redirect's event-loop stalls (> 2 ms) and V8 collections during each
 * half-rate round (bench/loop-stalls.js), as `redirectStallsAtHalfRate`: which part of the tail is
 * the redirect's own.
 *
 * `DL_BENCH_CPU_PROF=<dir>` writes V8 CPU profiles of both processes (on their exit).
 * `DL_NODE_ARGS='<flags>'` starts both with those node flags instead (`--perf-basic-prof` for
 * `perf record -p <pid>`, which counts only time on a CPU: a V8 profile of the worker, which runs
 * at a lower priority, also counts the time it waits for a core inside a system call;
 * `--trace-gc`), and `DL_BENCH_APP_LOGS=<prefix>` writes what each process printed to
 * `<prefix>.redirect.log` and `<prefix>.worker.log` at the end. Bounded:
 * every wait has a deadline. Loopback only; the shared Redis is never used for the queue.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AppProcess, USER_AGENTS } from '@dl/testing';
import { autocannon, runAutocannon } from './autocannon';
import { openLoadRedirects } from './open-load';
import { ALL_CPUS, cpuSeconds, cpuSecondsOf, LAST_CPU, pidsOf, pinToCpus, rssMb, setAutogroupNiceOf, setSchedFifo } from './proc-stats';
import { log, median, runBench, sleep, startPipeline } from './pipeline-support';
import { IPHONE } from './control-links';
import { stallsSummary } from './stalls';

const HEADERS = { 'user-agent': IPHONE, 'accept-language': 'en-US,en;q=0.9' };
const VARIED = process.argv.includes('--varied');
const BROWSERS = Object.values(USER_AGENTS).filter((ua) => !/bot/i.test(ua)).slice(0, 6);

/** The headers of visit `i`: one browser, or with --varied one of many visitors. */
function headersFor(i: number): Record<string, string> {
  if (!VARIED) return HEADERS;
  const k = i % 50_000;
  return {
    'user-agent': BROWSERS[i % BROWSERS.length],
    'accept-language': i % 3 ? 'en-US,en;q=0.9' : 'de-DE,de;q=0.8',
    'x-forwarded-for': `${1 + (k % 223)}.${(k >> 8) % 256}.${(k >> 3) % 256}.${k % 256}`,
  };
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function load(url: string, paths: string[], opts: Partial<autocannon.Options>): Promise<autocannon.Result> {
  let i = 0;
  return new Promise((resolve, reject) => {
    runAutocannon(
      {
        url,
        headers: HEADERS,
        requests: [
          {
            setupRequest: (req) => {
              const n = i++;
              return { ...req, path: paths[n % paths.length], ...(VARIED ? { headers: { ...(req.headers as Record<string, string>), ...headersFor(n) } } : {}) };
            },
          },
        ],
        ...opts,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/**
 * Load at a fixed `rate` for the half-rate latency: open-loop arrivals (default) or autocannon's
 * per-second burst (`--autocannon-half`). Every request must be answered with a 302.
 */
async function halfLoad(url: string, paths: string[], o: { connections: number; seconds: number; rate: number }) {
  if (process.argv.includes('--autocannon-half')) {
    const h = await load(url, paths, { connections: o.connections, duration: o.seconds, overallRate: o.rate });
    if (h.non2xx !== h['3xx'] || h.errors > 0) throw new Error(`half load: ${h.non2xx - h['3xx']} non-3xx answers, ${h.errors} errors`);
    return { p50: h.latency.p50, p99: h.latency.p99, fromWriteP99: h.latency.p99, sendLagP99: Number.NaN };
  }
  const h = await openLoadRedirects({ url, paths, headers: headersFor, rate: o.rate, seconds: o.seconds, maxSockets: o.connections });
  if (h.ok !== h.sent || h.notOk > 0 || h.errors > 0) throw new Error(`half load: ${h.ok} 302s of ${h.sent} sent, ${h.notOk} other answers, ${h.errors} errors`);
  return { p50: h.latency.p50, p99: h.latency.p99, fromWriteP99: h.fromWrite.p99, sendLagP99: h.sendLag.p99 };
}

/** Peak resident memory of each process while `work` runs. */
async function sampled<T>(procs: Record<string, AppProcess>, work: () => Promise<T>): Promise<{ result: T; peakRssMb: Record<string, number> }> {
  const peak: Record<string, number> = Object.fromEntries(Object.keys(procs).map((k) => [k, 0]));
  const timer = setInterval(() => {
    lowerDatabase();
    for (const [name, p] of Object.entries(procs)) peak[name] = Math.max(peak[name], rssMb(p.proc.pid!));
  }, 200);
  try {
    return { result: await work(), peakRssMb: peak };
  } finally {
    clearInterval(timer);
  }
}

const DB_NICE = process.argv.includes('--db-autogroup-nice') ? arg('db-autogroup-nice', 0) : null;
if (DB_NICE !== null && !(Number.isInteger(DB_NICE) && DB_NICE >= 0 && DB_NICE <= 19)) throw new Error('--db-autogroup-nice takes 0-19');
/** With --db-autogroup-nice: the Postgres backends' autogroups at that nice (new backends included: called again every 200 ms). */
const lowerDatabase = () => (DB_NICE === null ? 0 : setAutogroupNiceOf('postgres', DB_NICE));

const DRAIN_LAST_CPU = process.argv.includes('--drain-last-cpu');
/** With --drain-last-cpu: the worker and the database on the last CPU (the bench puts the database back on all at its end). */
function confineDrain(workerPid: number): void {
  if (!DRAIN_LAST_CPU) return;
  if (!pinToCpus(workerPid, LAST_CPU)) throw new Error(`cannot pin the worker to CPU ${LAST_CPU}`);
  const pinned = pidsOf('postgres').filter((pid) => pinToCpus(pid, LAST_CPU));
  if (pinned.length === 0) throw new Error('cannot pin the Postgres processes (root or their own user only)');
}

const REALTIME = process.argv.includes('--realtime');

/**
 * A full collection of this process (the load generator) before each latency round. Its old
 * generation fills in about 8 s of load (`--trace-gc`: a mark-compact every 8-9 s, pauses of
 * 6-26 ms), so one otherwise lands inside most rounds, and the loader's own pause counts in every
 * latency it measures, the bare server's as much as the redirect's (it stands for clients on other
 * machines). Collected just before, the next one falls after the round.
 */
const collectLoaderGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => gc();
})();

async function main(): Promise<void> {
  if (REALTIME && availableParallelism() < 2) throw new Error('--realtime needs at least two CPUs: on one, a real-time Node process livelocks');
  const seconds = arg('seconds', 10);
  const connections = arg('connections', 50);
  const linkCount = arg('links', 100);
  const runs = arg('runs', 3);
  const pipeline = await startPipeline({
    name: 'dl-bench-pipeline-',
    linkCount,
    codePrefix: 'pipe',
    config: VARIED ? { TRUSTED_CLIENT_IP_HEADER: 'x-forwarded-for' } : {},
    nodeArgs: process.env.DL_BENCH_CPU_PROF ? `--cpu-prof --cpu-prof-dir=${process.env.DL_BENCH_CPU_PROF}` : process.env.DL_NODE_ARGS || undefined,
    stallsMs: process.argv.includes('--stalls') ? seconds * 1000 : undefined,
  });
  const { env, paths, redirect, worker, bare, stallsDir } = pipeline;
  try {
    const procs = { redirect, worker };
    const stored = async (): Promise<number> => {
      const rows = await env.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*)::bigint AS n FROM clicks WHERE organization_id = ${pipeline.organizationId}::uuid`;
      return Number(rows[0].n);
    };
    /** Waits until `expected` clicks are stored; returns the seconds it took. Fails on more (a duplicate) or on the deadline. */
    const drained = async (expected: number, deadlineMs = 180_000): Promise<number> => {
      const started = Date.now();
      for (;;) {
        const n = await stored();
        if (n === expected) return (Date.now() - started) / 1000;
        if (n > expected) throw new Error(`stored ${n} clicks for ${expected} redirects: duplicates`);
        if (Date.now() - started > deadlineMs) throw new Error(`only ${n} of ${expected} clicks stored after ${deadlineMs} ms`);
        await sleep(50);
      }
    };

    /**
     * Clicks the redirect captured (its `clicks_captured_total`): autocannon does not count the
     * answers still in flight when its time is up, but the edge served them and queued their clicks.
     */
    const capturedNow = async (): Promise<number> => {
      const text = await (await fetch(`${redirect.url}/metrics`)).text();
      return text
        .split('\n')
        .filter((line) => line.startsWith('clicks_captured_total'))
        .reduce((n, line) => n + Number(line.split(' ').pop()), 0);
    };
    /** The count once the last answers in flight have been written (two reads 250 ms apart agree). */
    const captured = async (): Promise<number> => {
      let last = await capturedNow();
      for (;;) {
        await sleep(250);
        const now = await capturedNow();
        if (now === last) return now;
        last = now;
      }
    };

    confineDrain(worker.proc.pid!);
    if (REALTIME) {
      setSchedFifo(redirect.proc.pid!, true, true);
      setSchedFifo(bare.proc.pid!, true, true);
      setSchedFifo(process.pid, true);
      log('latency path at SCHED_FIFO 1', { redirect: redirect.proc.pid, bare: bare.proc.pid, loader: process.pid });
    }
    if (DRAIN_LAST_CPU) log('drain confined', { cpu: LAST_CPU });
    if (DB_NICE !== null) log('database autogroups lowered', { nice: DB_NICE, processes: lowerDatabase() });
    log('warm-up');
    const warm = await load(redirect.url, paths, { connections: 16, duration: 2 });
    // The open-loop loader and the bare server warm too: the first half-rate round otherwise
    // measures their code still unoptimised (run 1's bare-server p99 was 2-10 ms, later runs' 1-2).
    const warmOpen = await openLoadRedirects({ url: redirect.url, paths, headers: headersFor, rate: 4000, seconds: 2, maxSockets: connections });
    await openLoadRedirects({ url: bare.url, paths, headers: headersFor, rate: 4000, seconds: 2, maxSockets: connections });
    let served = await captured();
    const warmed = warm['3xx'] + warmOpen.ok;
    if (served < warmed || served > warmed + 16) throw new Error(`captured ${served} clicks for ${warmed} counted 302s`);
    await drained(served);

    const rows: Array<Record<string, number>> = [];
    const stalls: unknown[] = [];
    for (let run = 1; run <= runs; run++) {
      log('full load', { run, seconds, connections });
      lowerDatabase();
      const cpu0 = { redirect: cpuSeconds(redirect.proc.pid!), worker: cpuSeconds(worker.proc.pid!), postgres: cpuSecondsOf('postgres'), redis: cpuSeconds(pipeline.redisPid), loader: process.cpuUsage() };
      const full = await sampled(procs, async () => {
        const started = Date.now();
        const before = served;
        const r = await load(redirect.url, paths, { connections, duration: seconds });
        const loadEnded = Date.now();
        const loadSeconds = (loadEnded - started) / 1000;
        served = await captured();
        const clicks = served - before;
        await drained(served);
        const drainSeconds = (Date.now() - loadEnded) / 1000;
        return { r, clicks, loadSeconds, drainSeconds };
      });
      const { r, clicks, loadSeconds, drainSeconds } = full.result;
      if (r.non2xx !== r['3xx'] || r.errors > 0) throw new Error(`full load: ${r.non2xx - r['3xx']} non-3xx answers, ${r.errors} errors`);
      const loaderCpu = process.cpuUsage(cpu0.loader);
      const cpu = {
        redirect: cpuSeconds(redirect.proc.pid!) - cpu0.redirect,
        worker: cpuSeconds(worker.proc.pid!) - cpu0.worker,
        postgres: cpuSecondsOf('postgres') - cpu0.postgres,
        redis: cpuSeconds(pipeline.redisPid) - cpu0.redis,
        loader: (loaderCpu.user + loaderCpu.system) / 1e6,
      };

      const halfRate = Math.round(clicks / loadSeconds / 2);
      collectLoaderGarbage();
      log('half load', { run, rate: halfRate });
      lowerDatabase();
      const halfCpu0 = { worker: cpuSeconds(worker.proc.pid!), postgres: cpuSecondsOf('postgres'), before: served };
      if (stallsDir) {
        rmSync(join(stallsDir, `stalls-${redirect.proc.pid}.json`), { force: true });
        redirect.proc.kill('SIGUSR2');
      }
      const half = await sampled(procs, async () => {
        const h = await halfLoad(redirect.url, paths, { connections, seconds, rate: halfRate });
        served = await captured();
        const drainSeconds = await drained(served);
        return { h, drainSeconds };
      });
      const { h } = half.result;
      if (stallsDir) stalls.push(await stallsSummary(stallsDir, redirect.proc.pid!, seconds));
      const halfClicks = served - halfCpu0.before;
      const halfCpu = { worker: cpuSeconds(worker.proc.pid!) - halfCpu0.worker, postgres: cpuSecondsOf('postgres') - halfCpu0.postgres };
      collectLoaderGarbage();
      log('floor: bare server at the half rate', { run, rate: halfRate });
      const floor = await halfLoad(bare.url, paths, { connections, seconds, rate: halfRate });

      const row = {
        run,
        redirectsPerSecond: Math.round(clicks / loadSeconds),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        clicksStored: clicks,
        drainAfterLoadSeconds: Math.round(drainSeconds * 10) / 10,
        clicksPerSecondEndToEnd: Math.round(clicks / (loadSeconds + drainSeconds)),
        redirectCpuMicrosPerClick: Math.round((cpu.redirect * 1e6) / clicks),
        workerCpuMicrosPerClick: Math.round((cpu.worker * 1e6) / clicks),
        postgresCpuMicrosPerClick: Math.round((cpu.postgres * 1e6) / clicks),
        redisCpuMicrosPerClick: Math.round((cpu.redis * 1e6) / clicks),
        loaderCpuMicrosPerClick: Math.round((cpu.loader * 1e6) / clicks),
        halfRateRps: halfRate,
        halfP50Ms: h.p50,
        halfP99Ms: h.p99,
        halfFromWriteP99Ms: h.fromWriteP99,
        halfWorkerCpuMicrosPerClick: Math.round((halfCpu.worker * 1e6) / halfClicks),
        halfPostgresCpuMicrosPerClick: Math.round((halfCpu.postgres * 1e6) / halfClicks),
        halfSendLagP99Ms: h.sendLagP99,
        bareHalfP99Ms: floor.p99,
        redirectPeakRssMb: Math.max(full.peakRssMb.redirect, half.peakRssMb.redirect),
        workerPeakRssMb: Math.max(full.peakRssMb.worker, half.peakRssMb.worker),
      };
      rows.push(row);
      log('run', { ...row, full: { total: r.requests.total, '3xx': r['3xx'], timeouts: r.timeouts } });
    }
    const keys = Object.keys(rows[0]).filter((k) => k !== 'run');
    const medians = Object.fromEntries(keys.map((k) => [k, median(rows.map((row) => row[k]))]));
    process.stdout.write(`${JSON.stringify({ bench: 'pipeline', seconds, connections, links: linkCount, ...(DB_NICE !== null ? { databaseAutogroupNice: DB_NICE } : {}), ...(DRAIN_LAST_CPU ? { drainOnCpu: Number(LAST_CPU) } : {}), ...(REALTIME ? { latencyPathAtSchedFifo: true } : {}), runs: rows, medians, exact: true, ...(stallsDir ? { redirectStallsAtHalfRate: stalls } : {}) }, null, 2)}\n`);
  } finally {
    const logs = process.env.DL_BENCH_APP_LOGS;
    if (logs) for (const [name, app] of Object.entries({ redirect, worker })) writeFileSync(`${logs}.${name}.log`, app.output());
    if (DB_NICE !== null) setAutogroupNiceOf('postgres', 0);
    if (DRAIN_LAST_CPU) for (const pid of pidsOf('postgres')) pinToCpus(pid, ALL_CPUS);
    await pipeline.stop();
  }
}

runBench(main);
