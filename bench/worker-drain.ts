/**
 * The worker's production process draining a backlog of varied clicks (docs/performance.md).
 *   node tools/scripts/run.js bench/worker-drain.ts [--clicks 100000] [--batch 500] [--runs 2] [--prefill] [--processes 1]
 * --batch: clicks per `click.batch` job. `DL_NODE_ARGS='<flags>'` adds node flags to the worker (`--cpu-prof --cpu-prof-dir=…`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { bullOptions, Queues } from '@dl/platform/queue';
import { childPids, configEnv, createTestEnv, ensureTemplateDatabase, listeningCount, PrivateRedis, spawnApp, waitUntil } from '@dl/testing';
import { arg, benchClick, benchLinks, cpuSecondsOf, databaseCpuSeconds, drained, flag, log, memoryMb, print, queueClickBatches, round, runBench, sleep, storedClicks, watchDrain } from './kit';

runBench(async () => {
  const [total, perJob, runs, processes, prefill] = [arg('clicks', 100_000), arg('batch', 500), arg('runs', 2), arg('processes', 1), flag('prefill')];
  await ensureTemplateDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'dl-bench-worker-drain-'));
  const redis = await PrivateRedis.create(dir, { appendonly: false });
  // More processes log `worker listening` each (at info), to be waited for.
  const env = await createTestEnv({ REDIS_URL: redis.url, LOG_LEVEL: processes > 1 ? 'info' : 'warn', WEB_CONCURRENCY: String(processes) });
  const queue = new Queue(Queues.clicks, bullOptions(env.config));
  try {
    const click = benchClick(await benchLinks(env));
    const extra: Record<string, string> = process.env.DL_NODE_ARGS ? { DL_NODE_ARGS: process.env.DL_NODE_ARGS } : {};
    const rows: Array<Record<string, number | null>> = [];
    for (let run = 1; run <= runs; run++) {
      const worker = await spawnApp('worker', { ...configEnv(env.config), ...extra }, 120_000);
      try {
        await waitUntil(`${processes} worker processes`, () => processes === 1 || listeningCount(worker, 'worker') >= processes);
        const pids = [worker.proc.pid!, ...(processes > 1 ? childPids(worker).map(Number) : [])];
        const memory = () => pids.map(memoryMb).reduce((a, m) => ({ rss: a.rss + m.rss, peak: a.peak + m.peak }), { rss: 0, peak: 0 });
        await sleep(2_000);
        const idleRssMb = memory().rss;
        const before = await storedClicks(env);
        const count = async () => (await storedClicks(env)) - before;
        if (prefill) await queue.pause();
        const [cpu0, postgres0, started] = [cpuSecondsOf(pids), await databaseCpuSeconds(env.prisma), Date.now()];
        const watching = prefill ? null : watchDrain(count, total, 300);
        await queueClickBatches(queue, click, total, perJob, (run - 1) * total);
        if (prefill) {
          log('queue pre-filled', { clicks: total, jobs: Math.ceil(total / perJob) });
          await queue.resume();
        }
        const steady = (await (watching ?? watchDrain(count, total, 300))).steadyPerSecond;
        await drained(count, total, 60_000);
        const seconds = (Date.now() - started) / 1000;
        const perClick = (cpu: number) => Math.round((cpu * 1e6) / total);
        const row = {
          run,
          workerCpuMicrosPerClick: perClick(cpuSecondsOf(pids) - cpu0),
          postgresCpuMicrosPerClick: perClick((await databaseCpuSeconds(env.prisma)) - postgres0),
          workerIdleRssMb: idleRssMb,
          workerPeakRssMb: memory().peak,
          drainSeconds: round(seconds),
          steadyClicksPerSecond: steady,
        };
        rows.push(row);
        log('run', row);
      } finally {
        await worker.stop('SIGTERM').catch(() => undefined);
      }
    }
    const [{ rollup, counters }] = await env.prisma.$queryRaw<Array<{ rollup: number; counters: number }>>`
      SELECT (SELECT coalesce(sum(clicks),0)::int FROM click_rollups WHERE dimension IN ('total','bot')) AS rollup,
             (SELECT coalesce(sum(click_count),0)::int FROM links) AS counters`;
    print({ bench: 'worker-drain', clicks: total, clicksPerJob: perJob, processes, prefill, runs: rows, stored: await storedClicks(env), rollupTotalPlusBot: rollup, linkCounters: counters, exact: true });
  } finally {
    await queue.close();
    await env.teardown().catch(() => undefined);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
