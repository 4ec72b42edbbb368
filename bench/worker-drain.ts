/**
 * The worker's production process (at the bench's priority) draining a fixed backlog (goal: peak
 * resident memory under 250 MB), on a private redis-server and its own database: CPU time per click
 * from /proc and memory stay comparable on a busy host, where throughput does not.
 *
 *   node tools/scripts/run.js bench/worker-drain.ts [--clicks 100000] [--batch 500] [--runs 2]
 *
 * Per run: the worker idles 2 s after boot (idle RSS), then `click.batch` jobs of --batch varied
 * clicks (60 links of 3 organizations) are queued as fast as the bench can while the worker
 * drains; the run ends when every click is stored (a missing or duplicate click fails it).
 * `DL_NODE_ARGS='<flags>'` starts the worker with more node flags (`--cpu-prof --cpu-prof-dir=…`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { bullOptions, Queues } from '@dl/platform/queue';
import { configEnv, createTestEnv, ensureTemplateDatabase, PrivateRedis, spawnApp } from '@dl/testing';
import { arg, benchClick, benchLinks, cpuSeconds, databaseCpuSeconds, drained, log, memoryMb, print, queueClickBatches, runBench, sleep, storedClicks } from './kit';

async function main(): Promise<void> {
  const total = arg('clicks', 100_000);
  const perJob = arg('batch', 500);
  const runs = arg('runs', 2);
  await ensureTemplateDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'dl-bench-worker-drain-'));
  const redis = await PrivateRedis.create(dir, { appendonly: false });
  const env = await createTestEnv({ REDIS_URL: redis.url, LOG_LEVEL: 'warn' });
  const queue = new Queue(Queues.clicks, bullOptions(env.config));
  try {
    const links = await benchLinks(env);
    const click = benchClick(links);
    const extra: Record<string, string> = process.env.DL_NODE_ARGS ? { DL_NODE_ARGS: process.env.DL_NODE_ARGS } : {};
    const rows: Array<Record<string, number>> = [];
    for (let run = 1; run <= runs; run++) {
      const worker = await spawnApp('worker', { ...configEnv(env.config), ...extra });
      try {
        const pid = worker.proc.pid!;
        await sleep(2_000);
        const idleRssMb = memoryMb(pid).rss;
        const before = await storedClicks(env);
        const cpu0 = cpuSeconds(pid);
        const postgres0 = await databaseCpuSeconds(env);
        const started = Date.now();
        await queueClickBatches(queue, click, total, perJob, (run - 1) * total);
        const seconds = (Date.now() - started) / 1000 + (await drained(async () => (await storedClicks(env)) - before, total, 300_000));
        const row = {
          run,
          workerCpuMicrosPerClick: Math.round(((cpuSeconds(pid) - cpu0) * 1e6) / total),
          postgresCpuMicrosPerClick: Math.round((((await databaseCpuSeconds(env)) - postgres0) * 1e6) / total),
          workerIdleRssMb: idleRssMb,
          workerPeakRssMb: memoryMb(pid).peak,
          drainSeconds: Math.round(seconds * 10) / 10,
        };
        rows.push(row);
        log('run', row);
      } finally {
        await worker.stop('SIGTERM').catch(() => undefined);
      }
    }
    print({ bench: 'worker-drain', clicks: total, clicksPerJob: perJob, runs: rows, exact: true });
  } finally {
    await queue.close();
    await env.teardown().catch(() => undefined);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
