/**
 * The worker's drain rate: a `clicks` queue pre-filled with --clicks varied clicks in `click.batch`
 * jobs of --batch (500: a full flush of the edge under load), then the worker app (consumer,
 * batches, enrichment, insert, rollups, daily visitors, link counters) drains it. The steady rate
 * is taken between 10% and 90% of the backlog (boot and tail left out); the rollups and link
 * counters must add up to the clicks.
 *
 *   node tools/scripts/run.js bench/clicks-drain.ts [--clicks 40000] [--max-seconds 20] [--batch 500]
 *
 * Own database and Redis prefix, removed at the end; bounded by --max-seconds.
 */
import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { createWorkerApp } from '@dl/apps/worker';
import { bullOptions, Queues } from '@dl/platform/queue';
import { createTestEnv, ensureTemplateDatabase, startApp } from '@dl/testing';
import { arg, benchClick, benchLinks, log, print, queueClickBatches, round, runBench, storedClicks, watchDrain } from './kit';

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const total = arg('clicks', 40_000);
  const maxSeconds = arg('max-seconds', 20);
  const perJob = arg('batch', 500);
  await ensureTemplateDatabase();
  const env = await createTestEnv();
  const queue = new Queue(Queues.clicks, bullOptions(env.config));
  try {
    const links = await benchLinks(env);
    await queueClickBatches(queue, benchClick(links), total, perJob);
    log('queue pre-filled', { clicks: total, jobs: Math.ceil(total / perJob) });

    const worker = await startApp(createWorkerApp, env.config);
    const { stored, seconds, steadyPerSecond } = await watchDrain(() => storedClicks(env), total, maxSeconds);
    await worker.close();
    const [{ rollup, counters }] = await env.prisma.$queryRaw<Array<{ rollup: number; counters: number }>>`
      SELECT (SELECT coalesce(sum(clicks),0)::int FROM click_rollups WHERE dimension IN ('total','bot')) AS rollup,
             (SELECT coalesce(sum(click_count),0)::int FROM links) AS counters`;
    print({
      bench: 'clicks-drain',
      clicks: total,
      clicksPerJob: perJob,
      stored,
      drained: stored === total,
      seconds: round(seconds),
      clicksPerSecond: Math.round(stored / seconds),
      steadyClicksPerSecond: steadyPerSecond,
      rollupTotalPlusBot: rollup,
      linkCounters: counters,
    });
  } finally {
    await queue.close();
    await env.teardown();
  }
}

runBench(main);
