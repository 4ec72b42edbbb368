/**
 * Where the whole pipeline's half-rate tail comes from: one pipeline (redirect and worker as
 * separate production processes, each in a session of its own, as `bench/pipeline.ts` starts
 * them), then rounds of open-loop load at a fixed `--rate`, one round per variant in turn, so
 * every variant meets the host's noise in the same minutes. A variant changes the scheduling of
 * the running processes from outside before its round and undoes it after; `+` joins several:
 *
 *   base          the pipeline as it runs
 *   workerStop    the worker stopped (SIGSTOP) for the round: the edge alone at this rate; its
 *                 clicks wait in Redis and are drained after the round
 *   workerIdle    the worker's threads at SCHED_IDLE (`chrt -a -i`)
 *   workerBatch   the worker's threads at SCHED_BATCH (`chrt -a -b`)
 *   dbLow         every Postgres process's autogroup at nice 19 (root; what an operator's lower
 *                 CPU weight for the database does on this host, see bench/pipeline.ts)
 *   dbNice        every thread of every Postgres process at nice 19 (root): with autogroups
 *                 on it weighs only inside each backend's own session; run with
 *                 `kernel.sched_autogroup_enabled = 0` (set before the bench starts, so every
 *                 process it starts is in the root group) it is the database's weight
 *   workerCpu1    the worker's threads on the last CPU only (`taskset -a -c`)
 *   dbCpu1        every Postgres process on the last CPU only
 *   redirectFifo  the redirect's main thread at SCHED_FIFO 1 (`chrt -f`; root): it preempts any
 *                 ordinary task the moment a request wakes it
 *   redirectFifoAll  every thread of the redirect at SCHED_FIFO 1 (`chrt -a -f`; what systemd's
 *                 `CPUSchedulingPolicy=fifo` does)
 *   redirectUp    the redirect's autogroup at nice -10 (root)
 *   loaderFifo    the bench's own main thread (the load generator) at SCHED_FIFO 1, as a client
 *                 on another host would never wait for these cores
 *   bare          the bare `node:http` 302 server under the same load: the floor
 *
 * For each round: the redirect's p50/p90/p99 from the scheduled send time, p99 from the write,
 * the loader's send lag, and the redirect's stalls over 2 ms split into running and waiting for a
 * core (bench/loop-stalls.js). Prints one line a variant: its p99 in each round, the median, and
 * the waits. Diagnostic, not a figure of the service: the variants other than `base` change the
 * host. Linux only; bounded (every round `--seconds`, every wait with a deadline); loopback only.
 *
 *   node tools/scripts/run.js bench/pipeline-variants.ts [--rate 12000] [--seconds 6] [--rounds 4] [--variants base,workerStop,dbLow,bare]
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { autogroupsOn, USER_AGENTS } from '@dl/testing';
import { openLoadRedirects } from './open-load';
import { log, median, runBench, sleep, startPipeline } from './pipeline-support';
import { ALL_CPUS, LAST_CPU, pidsOf, pinToCpus, setAutogroupNice, setAutogroupNiceOf, setNiceOf, setSchedFifo, setThreadsNice } from './proc-stats';
import { stallsSummary } from './stalls';

const HEADERS = { 'user-agent': USER_AGENTS.iPhone, 'accept-language': 'en-US,en;q=0.9' };
/** Whether a variant measures the bare server instead of the redirect. */
const measuresBare = (variant: string) => variant.split('+').includes('bare');
const KNOWN = new Set(['base', 'workerStop', 'workerIdle', 'workerBatch', 'dbLow', 'dbNice', 'workerCpu1', 'dbCpu1', 'redirectFifo', 'redirectFifoAll', 'redirectUp', 'loaderFifo', 'bare']);


function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}
/** Applies (on) or undoes (off) a variant's scheduling change on the running worker, database, redirect or this process (the loader). */
function schedule(variant: string, workerPid: number, workerNice: number, on: boolean, redirectPid: number): void {
  for (const part of variant.split('+')) {
    if (part === 'redirectFifo' || part === 'redirectFifoAll') setSchedFifo(redirectPid, on, part === 'redirectFifoAll');
    if (part === 'loaderFifo') setSchedFifo(process.pid, on);
    if (part === 'redirectUp') setAutogroupNice(redirectPid, on ? -10 : 0);
    if (part === 'workerStop') process.kill(workerPid, on ? 'SIGSTOP' : 'SIGCONT');
    if (part === 'workerIdle' || part === 'workerBatch') {
      execFileSync('chrt', ['-a', on ? (part === 'workerIdle' ? '-i' : '-b') : '-o', '-p', '0', String(workerPid)]);
      // Back to SCHED_OTHER at the worker's own nice (chrt leaves the nice value; set it again to be sure).
      if (!on) setThreadsNice(workerPid, workerNice);
    }
    if (part === 'dbLow') setAutogroupNiceOf('postgres', on ? 19 : 0);
    if (part === 'dbNice') setNiceOf('postgres', on ? 19 : 0);
    if (part === 'workerCpu1') pinToCpus(workerPid, on ? LAST_CPU : ALL_CPUS);
    if (part === 'dbCpu1') for (const pid of pidsOf('postgres')) pinToCpus(pid, on ? LAST_CPU : ALL_CPUS);
  }
}

async function main(): Promise<void> {
  const rate = Number(arg('rate', '12000'));
  const seconds = Number(arg('seconds', '6'));
  const rounds = Number(arg('rounds', '4'));
  const variants = arg('variants', 'base,workerStop,dbLow,bare').split(',');
  for (const v of variants) for (const part of v.split('+')) if (!KNOWN.has(part)) throw new Error(`unknown variant ${part} (known: ${[...KNOWN].join(', ')})`);
  // A real-time Node process livelocks on a core shared only with real-time tasks (bench/pipeline.ts, --realtime).
  if (variants.some((v) => /Fifo/.test(v)) && availableParallelism() < 2) throw new Error('the Fifo variants need at least two CPUs');
  const pipeline = await startPipeline({ name: 'dl-bench-variants-', linkCount: 100, codePrefix: 'vary', stallsMs: seconds * 1000 });
  const { paths, redirect, worker, bare, workerNice } = pipeline;
  const stallsDir = pipeline.stallsDir!;
  let undo: (() => void) | null = null;
  try {
    const redirectPid = redirect.proc.pid!;
    const workerPid = worker.proc.pid!;

    log('warm-up', { rate: rate / 2, seconds: 3 });
    await openLoadRedirects({ url: redirect.url, paths, headers: HEADERS, rate: rate / 2, seconds: 3, maxSockets: 50 });
    await openLoadRedirects({ url: bare.url, paths, headers: HEADERS, rate: rate / 2, seconds: 3, maxSockets: 50 });

    const results = new Map<string, Array<Record<string, number>>>();
    for (let round = 1; round <= rounds; round++) {
      for (const variant of variants) {
        const isBare = measuresBare(variant);
        schedule(variant, workerPid, workerNice, true, redirectPid);
        undo = () => schedule(variant, workerPid, workerNice, false, redirectPid);
        rmSync(join(stallsDir, `stalls-${redirectPid}.json`), { force: true });
        if (!isBare) redirect.proc.kill('SIGUSR2');
        const h = await openLoadRedirects({ url: isBare ? bare.url : redirect.url, paths, headers: HEADERS, rate, seconds, maxSockets: 50 });
        const stalls = isBare ? null : await stallsSummary(stallsDir, redirectPid, seconds);
        undo();
        undo = null;
        if (h.ok !== h.sent || h.notOk > 0 || h.errors > 0) throw new Error(`${variant}: ${h.ok} 302s of ${h.sent} sent, ${h.notOk} other answers, ${h.errors} errors`);
        const row = {
          round,
          p50Ms: h.latency.p50,
          p90Ms: h.latency.p90,
          p99Ms: h.latency.p99,
          fromWriteP99Ms: h.fromWrite.p99,
          sendLagP99Ms: h.sendLag.p99,
          ...(stalls && 'stalledMsWaitingForACore' in stalls ? { waitingForACoreMs: stalls.stalledMsWaitingForACore, runningMs: stalls.stalledMsRunning, stallsOver2Ms: stalls.stallsOver2Ms } : {}),
        };
        log('round', { variant, ...row });
        results.set(variant, [...(results.get(variant) ?? []), row]);
        await sleep(1500); // the worker drains what a stopped round left, before the next
      }
    }
    const summary = [...results].map(([variant, rows]) => ({
      variant,
      p99Ms: rows.map((r) => r.p99Ms),
      p99MsMedian: median(rows.map((r) => r.p99Ms)),
      p90MsMedian: median(rows.map((r) => r.p90Ms)),
      sendLagP99Ms: rows.map((r) => r.sendLagP99Ms),
      ...(measuresBare(variant) ? {} : { waitingForACoreMs: rows.map((r) => r.waitingForACoreMs) }),
    }));
    process.stdout.write(`${JSON.stringify({ bench: 'pipeline-variants', rate, seconds, rounds, autogroups: autogroupsOn(), variants: summary }, null, 2)}\n`);
  } finally {
    if (undo) undo();
    await pipeline.stop();
  }
}

runBench(main);
