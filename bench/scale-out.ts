/**
 * Many processes (WEB_CONCURRENCY, node:cluster), on this machine:
 *
 *   1. drain: the same backlog of --clicks clicks (`click.batch` jobs of --batch, as the edge
 *      queues them) drained by the worker's production entry with 1, then 2 processes, each run on
 *      a fresh database and Redis prefix. Steady rate = clicks stored between 10% and 90% of the
 *      backlog ÷ that time (excludes boot and tail). Exact counts checked: stored == backlog.
 *   2. redirect: autocannon for --seconds at --connections against the redirect's production entry
 *      with 1, then 2 processes behind the same port.
 *
 * CPU is sampled from /proc while each part runs: the app's processes (primary + forks, % of one
 * core), Postgres (every `postgres` process of the machine) and the machine's busy share of all
 * cores, so the limiting resource shows. The machine is shared: other engineers' runs count in
 * the machine figure.
 *
 *   node tools/scripts/run.js bench/scale-out.ts [--clicks 30000] [--batch 500] [--seconds 10] [--connections 50] [--max-seconds 90]
 *
 * Bounded (every wait has a deadline), loopback only, own databases and prefixes removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import { clickBatchJobId, ClickCapturedJob, packClickBatch } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { AppProcess, ClickFixtures, configEnv, createTestEnv, ensureTemplateDatabase, productionWorkerNice, rawClick, spawnApp, TestEnv, USER_AGENTS } from '@dl/testing';
import { autocannon, runAutocannon } from './autocannon';


function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TICKS = 100; // USER_HZ

/** utime + stime of a process, in clock ticks (0 when it is gone). */
function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
/** PIDs `ps` lists (none: ps exits 1). */
function pidsOf(args: string[]): number[] {
  try {
    return execFileSync('ps', args, { encoding: 'utf8' }).split('\n').map((s) => Number(s.trim())).filter((n) => n > 0);
  } catch {
    return [];
  }
}
function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - cpu[3] - cpu[4], total };
}

/** CPU use while `work` runs: the app's processes and Postgres in % of one core, the machine in % of all cores. */
async function cpuDuring<T>(app: AppProcess, work: () => Promise<T>): Promise<{ result: T; cpu: Record<string, number> }> {
  const appPids = () => [app.proc.pid!, ...pidsOf(['-o', 'pid=', '--ppid', String(app.proc.pid)])];
  const pgPids = () => pidsOf(['-C', 'postgres', '-o', 'pid=']);
  const before = new Map<number, number>();
  for (const p of [...appPids(), ...pgPids()]) before.set(p, cpuTicks(p));
  const m0 = machineTicks();
  const t0 = performance.now();
  const result = await work();
  const seconds = (performance.now() - t0) / 1000;
  const m1 = machineTicks();
  const used = (pids: number[]) => pids.reduce((sum, p) => sum + Math.max(0, cpuTicks(p) - (before.get(p) ?? 0)), 0);
  return {
    result,
    cpu: {
      appPercentOfOneCore: Math.round((used(appPids()) / TICKS / seconds) * 100),
      postgresPercentOfOneCore: Math.round((used(pgPids()) / TICKS / seconds) * 100),
      machineBusyPercent: Math.round(((m1.busy - m0.busy) / (m1.total - m0.total)) * 100),
    },
  };
}

async function spawnN(app: 'worker' | 'redirect', env: Record<string, string>, n: number): Promise<AppProcess> {
  const proc = await spawnApp(app, { ...env, LOG_LEVEL: 'info', WEB_CONCURRENCY: String(n) }, 120_000, { ownSession: true });
  const deadline = Date.now() + 60_000;
  while (proc.output().split(`${app} listening`).length - 1 < n) {
    if (Date.now() > deadline) throw new Error(`${app}: ${n} processes not listening`);
    await sleep(100);
  }
  return proc;
}

async function drainRun(processes: number, total: number, perJob: number, maxSeconds: number): Promise<Record<string, unknown>> {
  const env: TestEnv = await createTestEnv(productionWorkerNice());
  const queue = new Queue(Queues.clicks, bullOptions(env.config));
  let worker: AppProcess | undefined;
  try {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const links: Array<{ id: string; organizationId: string }> = [];
    for (let i = 0; i < 20; i++) links.push({ id: (await fx.link(org.id)).id, organizationId: org.id });
    const humans = [USER_AGENTS.iPhone, USER_AGENTS.androidPhone, USER_AGENTS.windowsChrome, USER_AGENTS.macSafari];
    const now = Date.now();
    const click = (i: number): ClickCapturedJob =>
      rawClick(links[i % links.length], {
        clickedAt: new Date(now - (i % 600) * 1000).toISOString(),
        ip: `${1 + (i % 223)}.${(i >> 8) % 256}.${(i >> 3) % 256}.${i % 256}`,
        userAgent: humans[i % humans.length],
      });
    for (let start = 0; start < total; start += perJob) {
      const clicks = Array.from({ length: Math.min(perJob, total - start) }, (_, k) => click(start + k));
      await queue.add('click.batch', packClickBatch(clicks), { jobId: clickBatchJobId(clicks) });
    }
    const count = async () => (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks`)[0].n;
    const t = performance.now();
    const samples: Array<[number, number]> = [];
    worker = await spawnN('worker', configEnv(env.config), processes);
    const measured = await cpuDuring(worker, async () => {
      let stored = 0;
      while (stored < total && performance.now() - t < maxSeconds * 1000) {
        await sleep(250);
        stored = await count();
        samples.push([performance.now() - t, stored]);
      }
      return stored;
    });
    const stored = measured.result;
    const at = (frac: number) => samples.find(([, n]) => n >= frac * stored) ?? samples[samples.length - 1];
    const [t10, n10] = at(0.1);
    const [t90, n90] = at(0.9);
    return {
      processes,
      clicks: total,
      stored,
      exact: stored === total,
      steadyClicksPerSecond: t90 > t10 ? Math.round((n90 - n10) / ((t90 - t10) / 1000)) : null,
      ...measured.cpu,
    };
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
    const url = `${redirect.url}/${link.shortCode}`;
    // Warm-up: caches and JIT of every process.
    await new Promise((resolve, reject) => runAutocannon({ url, connections, duration: 2, headers: { 'user-agent': USER_AGENTS.iPhone } }, (e, r) => (e ? reject(e) : resolve(r))));
    const measured = await cpuDuring(redirect, () =>
      new Promise<autocannon.Result>((resolve, reject) =>
        runAutocannon({ url, connections, duration: seconds, headers: { 'user-agent': USER_AGENTS.iPhone } }, (e, r) => (e ? reject(e) : resolve(r))),
      ),
    );
    const r = measured.result;
    return {
      processes,
      requestsPerSecond: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      redirects: r['3xx'],
      errors: r.errors,
      ...measured.cpu,
    };
  } finally {
    await redirect?.stop();
    await env.teardown();
  }
}

async function main(): Promise<void> {
  const total = arg('clicks', 30_000);
  const perJob = arg('batch', 500);
  const seconds = arg('seconds', 10);
  const connections = arg('connections', 50);
  const maxSeconds = arg('max-seconds', 90);
  await ensureTemplateDatabase();
  const drain = [];
  for (const n of [1, 2]) {
    const r = await drainRun(n, total, perJob, maxSeconds);
    log('drain', r);
    drain.push(r);
  }
  const redirect = [];
  for (const n of [1, 2]) {
    const r = await redirectRun(n, seconds, connections);
    log('redirect', r);
    redirect.push(r);
  }
  const ratio = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' && a > 0 ? Number((b / a).toFixed(2)) : null);
  process.stdout.write(
    `${JSON.stringify({
      bench: 'scale-out',
      cores: Number(execFileSync('nproc', { encoding: 'utf8' }).trim()),
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      drain,
      drainSpeedup: ratio(drain[0].steadyClicksPerSecond, drain[1].steadyClicksPerSecond),
      redirect,
      redirectSpeedup: ratio(redirect[0].requestsPerSecond, redirect[1].requestsPerSecond),
    })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
