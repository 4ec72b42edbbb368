/**
 * Worker drain rate: a `clicks` queue pre-filled with N clicks in `click.batch` jobs of
 * --batch clicks (500: a full flush of the edge under load; job id as the edge derives it)
 * (varied real user agents, IPs the GeoLite2 database resolves and others,
 * referrers, UTM, 2% bots, 60 links of 3 organizations, clicked in the last minutes), then the real worker app (BullMQ consumer,
 * micro-batches, enrichment, insert, rollups, daily visitors, link counters) drains it.
 *
 *   node tools/scripts/run.js bench/clicks-drain.ts [--clicks 40000] [--max-seconds 20] [--batch 500] [--month-visitors-cost]
 *
 * For context it also measures, in the same run: the BullMQ ceiling (the same
 * number of jobs drained by a worker whose processor does nothing) and the
 * pipeline alone (`ClickPipeline.store` called directly with batches of the
 * consumer's size, no queue).
 *
 * Own database cloned from the migrated template and own Redis prefix (both
 * removed at the end). Each timed part stops at --max-seconds.
 */
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { Queue, Worker } from 'bullmq';
import { CLICK_BATCH_SIZE, CLICK_CONCURRENCY, ClickPipeline } from '@dl/clicks';
import { createWorkerApp } from '@dl/apps/worker';
import { clickBatchJobId, ClickCapturedJob, packClickBatch } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, createTestEnv, ensureTemplateDatabase, KNOWN_IPS, rawClick, startApp, USER_AGENTS } from '@dl/testing';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);

async function main(): Promise<void> {
  Logger.overrideLogger(false);
  const total = arg('clicks', 40_000);
  const maxSeconds = arg('max-seconds', 20);
  const perJob = arg('batch', 500);
  await ensureTemplateDatabase();
  const env = await createTestEnv();
  const queue = new Queue(Queues.clicks, bullOptions(env.config));
  try {
    const fx = new ClickFixtures(env.prisma);
    const orgs = await Promise.all([fx.organization(Tier.PRO), fx.organization(Tier.FREE), fx.organization(Tier.BUSINESS)]);
    const links: Array<{ id: string; organizationId: string }> = [];
    for (let i = 0; i < 60; i++) {
      const org = orgs[i % orgs.length];
      links.push({ id: (await fx.link(org.id)).id, organizationId: org.id });
    }
    // Varied traffic: real UAs plus version variants (the UA cache must not make it trivial).
    const humans = [USER_AGENTS.iPhone, USER_AGENTS.androidPhone, USER_AGENTS.iPad, USER_AGENTS.windowsChrome, USER_AGENTS.macSafari, USER_AGENTS.linuxFirefox];
    const known = Object.values(KNOWN_IPS);
    const referrers = [null, null, 'https://www.google.com/', 'https://t.co/abc', 'https://www.instagram.com/', 'https://news.ycombinator.com/item?id=1'];
    const now = Date.now();
    const job = (i: number): ClickCapturedJob => {
      const ua = i % 50 === 0 ? USER_AGENTS.googlebot : humans[i % humans.length].replace(/(\d+)\.0\.0\.0/, `$1.0.${i % 400}.0`);
      // Skewed over links, as real traffic is: a few hot links.
      return rawClick(links[Math.floor(links.length * ((i * 0.6180339887) % 1) ** 2)], {
        // Live traffic: clicks of the last few minutes (today's rollup rows).
        clickedAt: new Date(now - (i % 600) * 1000).toISOString(),
        ip: i % 4 === 0 ? known[i % known.length] : `${1 + (i % 223)}.${(i >> 8) % 256}.${(i >> 3) % 256}.${i % 256}`,
        userAgent: ua,
        referrer: referrers[i % referrers.length],
        acceptLanguage: i % 3 ? 'en-US,en;q=0.9' : 'de-DE,de;q=0.8',
        query: i % 5 === 0 ? { utm_source: 'newsletter', utm_campaign: `c${i % 10}` } : {},
      });
    };

    // As the edge sends them: one `click.batch` job per flush, job id derived from its clicks.
    const fill = async (q: Queue, n: number, offset: number) => {
      for (let start = 0; start < n; start += 10 * perJob) {
        const chunk = Array.from({ length: Math.min(10 * perJob, n - start) }, (_, k) => job(offset + start + k));
        const batches: ClickCapturedJob[][] = [];
        for (let i = 0; i < chunk.length; i += perJob) batches.push(chunk.slice(i, i + perJob));
        await q.addBulk(batches.map((clicks) => ({ name: 'click.batch', data: packClickBatch(clicks), opts: { jobId: clickBatchJobId(clicks) } })));
      }
    };

    // 1. BullMQ ceiling: the same jobs, a processor that does nothing.
    const noopQueue = new Queue('bench-noop', bullOptions(env.config));
    await fill(noopQueue, total, 10_000_000);
    let done = 0;
    let t = performance.now();
    const noop = new Worker('bench-noop', async (j) => void (done += (j.data as { i: unknown[] }).i.length), {
      ...bullOptions(env.config),
      concurrency: CLICK_CONCURRENCY,
    } as never);
    while (done < total && performance.now() - t < maxSeconds * 1000) await new Promise((r) => setTimeout(r, 100));
    const ceiling = Math.round(done / ((performance.now() - t) / 1000));
    await noop.close();
    await noopQueue.obliterate({ force: true });
    await noopQueue.close();
    log('bullmq no-op ceiling', { clicksPerSecond: ceiling, clicksPerJob: perJob });

    t = performance.now();
    await fill(queue, total, 0);
    log('queue pre-filled', { clicks: total, jobs: Math.ceil(total / perJob), s: ((performance.now() - t) / 1000).toFixed(1) });

    t = performance.now();
    const worker = await startApp(createWorkerApp, env.config);
    const boot = performance.now() - t;
    t = performance.now();
    let stored = 0;
    const samples: Array<[number, number]> = [];
    while (stored < total && performance.now() - t < maxSeconds * 1000) {
      await new Promise((r) => setTimeout(r, 250));
      stored = (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks`)[0].n;
      samples.push([performance.now() - t, stored]);
    }
    const seconds = (performance.now() - t) / 1000;
    const waiting = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
    await worker.close();
    const [{ rollup, counters }] = await env.prisma.$queryRaw<Array<{ rollup: number; counters: number }>>`
      SELECT (SELECT coalesce(sum(clicks),0)::int FROM click_rollups WHERE dimension IN ('total','bot')) AS rollup,
             (SELECT coalesce(sum(click_count),0)::int FROM links) AS counters`;

    // 3. The pipeline alone: store() with the consumer's batch size, no queue.
    const direct = await startApp(createWorkerApp, env.withOverrides({}));
    await queue.pause();
    const pipeline = direct.app.get(ClickPipeline);
    let ingested = 0;
    const ingestFor = async (limit: number, budgetSeconds: number): Promise<number> => {
      const start = performance.now();
      let n = 0;
      while (n < limit && performance.now() - start < budgetSeconds * 1000) {
        await pipeline.store(Array.from({ length: CLICK_BATCH_SIZE }, (_, k) => job(20_000_000 + ingested + k)));
        ingested += CLICK_BATCH_SIZE;
        n += CLICK_BATCH_SIZE;
      }
      return Math.round(n / ((performance.now() - start) / 1000));
    };
    const directRate = await ingestFor(total, Math.min(10, maxSeconds));
    // --month-visitors-cost: the same path with the triggers that keep click_monthly_visitors off and on, alternately.
    let monthVisitorsCost: Record<string, number[]> | undefined;
    if (process.argv.includes('--month-visitors-cost')) {
      monthVisitorsCost = { triggersOffPerSecond: [], triggersOnPerSecond: [] };
      for (let round = 0; round < 5; round++) {
        for (const on of [false, true]) {
          await env.prisma.$executeRawUnsafe(`ALTER TABLE click_daily_visitors ${on ? 'ENABLE' : 'DISABLE'} TRIGGER USER`);
          monthVisitorsCost[on ? 'triggersOnPerSecond' : 'triggersOffPerSecond'].push(await ingestFor(Infinity, 6));
        }
      }
    }
    await direct.close();

    // Steady-state rate: between 10% and 90% of the stored clicks (excludes warm-up and tail).
    const at = (frac: number) => samples.find(([, n]) => n >= frac * stored) ?? samples[samples.length - 1];
    const [t10, n10] = at(0.1);
    const [t90, n90] = at(0.9);
    const result = {
      bench: 'clicks-drain',
      clicks: total,
      stored,
      drained: stored === total,
      seconds: Number(seconds.toFixed(2)),
      clicksPerSecond: Math.round(stored / seconds),
      steadyClicksPerSecond: t90 > t10 ? Math.round((n90 - n10) / ((t90 - t10) / 1000)) : null,
      workerBootMs: Math.round(boot),
      clicksPerJob: perJob,
      bullmqNoopCeilingClicksPerSecond: ceiling,
      pipelineOnlyPerSecond: directRate,
      monthVisitorsCost,
      batchSize: CLICK_BATCH_SIZE,
      rollupTotalPlusBot: rollup,
      linkCounters: counters,
      queueLeft: waiting,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await queue.close();
    await env.teardown();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
