/**
 * The worker as its production process (`apps/worker/src/main.ts` through the require hook) on
 * a private redis-server and its own database, draining a fixed amount of work: the figures
 * that stay comparable on a busy machine (CPU time per click from /proc, resident memory),
 * where throughput does not.
 *
 *   node tools/scripts/run.js bench/worker-drain.ts [--clicks 100000] [--batch 500] [--runs 2]
 *
 * Per run: the worker idles 2 s after boot (idle RSS), then `click.batch` jobs of --batch clicks
 * (as the edge sends them: varied user agents and IPs, 60 links of 3 organizations) are queued
 * as fast as the bench can, while the worker drains; the run ends when every click is stored
 * (exact count asserted: a missing or duplicate click fails the bench). Printed: worker CPU µs
 * per click (user + system, from boot-idle to drained), idle RSS, peak RSS (sampled every
 * 100 ms), drain seconds. `DL_BENCH_CPU_PROF=<dir>` writes the worker's V8 CPU profile;
 * `DL_NODE_ARGS='<flags>'` starts the worker with those node flags instead (a `-r <file>` hook
 * that samples the heap at each RSS peak, an allocation profiler, a V8 flag to try).
 * Bounded: every wait has a deadline. Loopback only.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { clickBatchJobId, ClickCapturedJob, packClickBatch } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, configEnv, createTestEnv, ensureTemplateDatabase, KNOWN_IPS, PrivateRedis, productionWorkerNice, rawClick, spawnApp, USER_AGENTS } from '@dl/testing';
import { cpuSeconds, cpuSecondsOf, rssMb } from './proc-stats';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const total = arg('clicks', 100_000);
  const perJob = arg('batch', 500);
  const runs = arg('runs', 2);
  await ensureTemplateDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'dl-bench-worker-drain-'));
  const redis = await PrivateRedis.create(dir, { appendonly: false });
  const env = await createTestEnv({ REDIS_URL: redis.url, LOG_LEVEL: 'warn', ...productionWorkerNice() });
  const queue = new Queue(Queues.clicks, bullOptions(env.config));
  try {
    const fx = new ClickFixtures(env.prisma);
    const orgs = await Promise.all([fx.organization(Tier.PRO), fx.organization(Tier.FREE), fx.organization(Tier.BUSINESS)]);
    const links: Array<{ id: string; organizationId: string }> = [];
    for (let i = 0; i < 60; i++) {
      const org = orgs[i % orgs.length];
      links.push({ id: (await fx.link(org.id)).id, organizationId: org.id });
    }
    const humans = [USER_AGENTS.iPhone, USER_AGENTS.androidPhone, USER_AGENTS.iPad, USER_AGENTS.windowsChrome, USER_AGENTS.macSafari, USER_AGENTS.linuxFirefox];
    const known = Object.values(KNOWN_IPS);
    const referrers = [null, null, 'https://www.google.com/', 'https://t.co/abc', 'https://www.instagram.com/'];
    const now = Date.now();
    const job = (i: number): ClickCapturedJob => {
      const ua = i % 50 === 0 ? USER_AGENTS.googlebot : humans[i % humans.length].replace(/(\d+)\.0\.0\.0/, `$1.0.${i % 400}.0`);
      return rawClick(links[Math.floor(links.length * ((i * 0.6180339887) % 1) ** 2)], {
        clickedAt: new Date(now - (i % 600) * 1000).toISOString(),
        ip: i % 4 === 0 ? known[i % known.length] : `${1 + (i % 223)}.${(i >> 8) % 256}.${(i >> 3) % 256}.${i % 256}`,
        userAgent: ua,
        referrer: referrers[i % referrers.length],
        acceptLanguage: i % 3 ? 'en-US,en;q=0.9' : 'de-DE,de;q=0.8',
        query: i % 5 === 0 ? { utm_source: 'newsletter', utm_campaign: `c${i % 10}` } : {},
      });
    };
    const stored = async (): Promise<number> => {
      const rows = await env.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*)::bigint AS n FROM clicks`;
      return Number(rows[0].n);
    };

    const profile: Record<string, string> = process.env.DL_NODE_ARGS ? { DL_NODE_ARGS: process.env.DL_NODE_ARGS } : process.env.DL_BENCH_CPU_PROF ? { DL_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${process.env.DL_BENCH_CPU_PROF}` } : {};
    const rows: Array<Record<string, number>> = [];
    let offset = 0;
    for (let run = 1; run <= runs; run++) {
      const worker = await spawnApp('worker', { ...configEnv(env.config), ...profile }, undefined, { ownSession: true });
      try {
        const pid = worker.proc.pid!;
        await sleep(2_000);
        const idleRssMb = rssMb(pid);
        const before = await stored();
        let peak = idleRssMb;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
        const cpu0 = cpuSeconds(pid);
        const postgres0 = cpuSecondsOf('postgres');
        const started = Date.now();
        for (let start = 0; start < total; start += 10 * perJob) {
          const chunk = Array.from({ length: Math.min(10 * perJob, total - start) }, (_, k) => job(offset + start + k));
          const batches: ClickCapturedJob[][] = [];
          for (let i = 0; i < chunk.length; i += perJob) batches.push(chunk.slice(i, i + perJob));
          await queue.addBulk(batches.map((clicks) => ({ name: 'click.batch', data: packClickBatch(clicks), opts: { jobId: clickBatchJobId(clicks) } })));
        }
        offset += total;
        const queuedSeconds = (Date.now() - started) / 1000;
        for (;;) {
          const n = (await stored()) - before;
          if (n === total) break;
          if (n > total) throw new Error(`stored ${n} clicks for ${total} queued: duplicates`);
          if (Date.now() - started > 300_000) throw new Error(`only ${n} of ${total} clicks stored after 300 s`);
          await sleep(50);
        }
        const seconds = (Date.now() - started) / 1000;
        const cpu = cpuSeconds(pid) - cpu0;
        const postgresCpu = cpuSecondsOf('postgres') - postgres0;
        clearInterval(sampler);
        peak = Math.max(peak, rssMb(pid));
        const row = {
          run,
          clicks: total,
          workerCpuMicrosPerClick: Math.round((cpu * 1e6) / total),
          postgresCpuMicrosPerClick: Math.round((postgresCpu * 1e6) / total),
          workerIdleRssMb: idleRssMb,
          workerPeakRssMb: peak,
          drainSeconds: Math.round(seconds * 10) / 10,
          queuedSeconds: Math.round(queuedSeconds * 10) / 10,
        };
        rows.push(row);
        log('run', row);
      } finally {
        await worker.stop('SIGTERM').catch(() => undefined);
      }
    }
    const [load1] = readFileSync('/proc/loadavg', 'utf8').split(' ');
    process.stdout.write(`${JSON.stringify({ bench: 'worker-drain', clicks: total, clicksPerJob: perJob, loadAverage1m: Number(load1), runs: rows, exact: true }, null, 2)}\n`);
  } finally {
    await queue.close();
    await env.teardown().catch(() => undefined);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
