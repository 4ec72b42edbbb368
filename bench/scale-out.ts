/**
 * Many processes (WEB_CONCURRENCY, node:cluster) on this machine:
 *
 *   1. drain: the same backlog of --clicks clicks (`click.batch` jobs of --batch) drained by the
 *      worker's production entry with 1, then 2 processes, each on a fresh database and Redis
 *      prefix. Steady rate = clicks stored between 10% and 90% of the backlog ÷ that time.
 *      Exact: stored == backlog.
 *   2. redirect: `wrk` for --seconds at --connections against the redirect's production entry
 *      with 1, then 2 processes behind one port.
 *
 * CPU while each part runs, from /proc: the app's processes (primary and forks) and the bench
 * database's Postgres backends in % of one core, so the limiting resource shows.
 *
 *   node tools/scripts/run.js bench/scale-out.ts [--clicks 30000] [--batch 500] [--seconds 10] [--connections 50] [--max-seconds 90]
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { Queue } from 'bullmq';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { AppProcess, ClickFixtures, configEnv, createTestEnv, ensureTemplateDatabase, spawnApp, TestEnv, USER_AGENTS } from '@dl/testing';
import { arg, benchClick, cpuSecondsOf, databaseCpuSeconds, log, print, queueClickBatches, runBench, sleep, storedClicks, watchDrain, wrk } from './kit';

/** CPU use while `work` runs: the app's processes and Postgres in % of one core. */
async function cpuDuring<T>(env: TestEnv, app: AppProcess, work: () => Promise<T>): Promise<{ result: T; cpu: Record<string, number> }> {
  let forks = '';
  try {
    forks = execFileSync('ps', ['-o', 'pid=', '--ppid', String(app.proc.pid)], { encoding: 'utf8' });
  } catch {
    // `ps` exits 1 when the primary has no forks.
  }
  const pids = [app.proc.pid!, ...forks.split('\n').map(Number).filter((n) => n > 0)];
  const before = { app: cpuSecondsOf(pids), postgres: await databaseCpuSeconds(env) };
  const t0 = Date.now();
  const result = await work();
  const seconds = (Date.now() - t0) / 1000;
  const percent = (used: number) => Math.round((used / seconds) * 100);
  return {
    result,
    cpu: {
      appPercentOfOneCore: percent(cpuSecondsOf(pids) - before.app),
      postgresPercentOfOneCore: percent((await databaseCpuSeconds(env)) - before.postgres),
    },
  };
}

async function spawnN(app: 'worker' | 'redirect', env: Record<string, string>, n: number): Promise<AppProcess> {
  // At the bench's own priority: this measures capacity, and a lowered worker on a busy shared host measures the host.
  const proc = await spawnApp(app, { ...env, LOG_LEVEL: 'info', WEB_CONCURRENCY: String(n) }, 120_000);
  const deadline = Date.now() + 60_000;
  while (proc.output().split(`${app} listening`).length - 1 < n) {
    if (Date.now() > deadline) throw new Error(`${app}: ${n} processes not listening`);
    await sleep(100);
  }
  return proc;
}

async function drainRun(processes: number, total: number, perJob: number, maxSeconds: number): Promise<Record<string, unknown>> {
  const env = await createTestEnv();
  const queue = new Queue(Queues.clicks, bullOptions(env.config));
  let worker: AppProcess | undefined;
  try {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const links: Array<{ id: string; organizationId: string }> = [];
    for (let i = 0; i < 20; i++) links.push({ id: (await fx.link(org.id)).id, organizationId: org.id });
    await queueClickBatches(queue, benchClick(links), total, perJob);
    worker = await spawnN('worker', configEnv(env.config), processes);
    const measured = await cpuDuring(env, worker, () => watchDrain(() => storedClicks(env), total, maxSeconds));
    const { stored, steadyPerSecond } = measured.result;
    return { processes, clicks: total, stored, exact: stored === total, steadyClicksPerSecond: steadyPerSecond, ...measured.cpu };
  } finally {
    await worker?.stop();
    await queue.close();
    await env.teardown();
  }
}

async function redirectRun(processes: number, seconds: number, connections: number): Promise<Record<string, unknown>> {
  const env = await createTestEnv();
  let redirect: AppProcess | undefined;
  try {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const link = await env.prisma.link.findUniqueOrThrow({ where: { id: (await fx.link(org.id)).id }, select: { shortCode: true } });
    redirect = await spawnN('redirect', configEnv(env.config), processes);
    const load = { url: `${redirect.url}/${link.shortCode}`, headers: { 'user-agent': USER_AGENTS.iPhone }, connections };
    await wrk({ ...load, seconds: 2 });
    const measured = await cpuDuring(env, redirect, () => wrk({ ...load, seconds }));
    const r = measured.result;
    return { processes, requestsPerSecond: r.requestsPerSecond, p50Ms: r.latencyMs.p50, p99Ms: r.latencyMs.p99, notOk: r.notOk, errors: r.errors, ...measured.cpu };
  } finally {
    await redirect?.stop();
    await env.teardown();
  }
}

async function main(): Promise<void> {
  const [total, perJob, seconds, connections, maxSeconds] = [arg('clicks', 30_000), arg('batch', 500), arg('seconds', 10), arg('connections', 50), arg('max-seconds', 90)];
  await ensureTemplateDatabase();
  const drain = [];
  const redirect = [];
  for (const n of [1, 2]) {
    drain.push(await drainRun(n, total, perJob, maxSeconds));
    log('drain', drain[drain.length - 1]);
  }
  for (const n of [1, 2]) {
    redirect.push(await redirectRun(n, seconds, connections));
    log('redirect', redirect[redirect.length - 1]);
  }
  const ratio = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' && a > 0 ? Number((b / a).toFixed(2)) : null);
  print({
    bench: 'scale-out',
    cores: availableParallelism(),
    drain,
    drainSpeedup: ratio(drain[0].steadyClicksPerSecond, drain[1].steadyClicksPerSecond),
    redirect,
    redirectSpeedup: ratio(redirect[0].requestsPerSecond, redirect[1].requestsPerSecond),
  });
}

runBench(main);
