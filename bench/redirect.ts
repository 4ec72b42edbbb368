/**
 * Redirect edge throughput, latency and memory, against the ceiling of this machine: a
 * bare `node:http` server answering a fixed 302 from an in-memory map, measured in the
 * same run with the same paths (autocannon on loopback; each server in its own process).
 *
 *   node tools/scripts/run.js bench/redirect.ts [--seconds 10] [--connections 64] [--links 100] [--rate N (the latency round's rate; default half the max)] [--autocannon-half]
 *   … --branded   the same links on a branded domain too: bare vs service host vs `Host: go.bench.test`
 *   … --stalls    also record the redirect's event-loop stalls (> 2 ms) and V8 collections during the
 *                 half-rate round (bench/loop-stalls.js): how much of its tail the process makes itself
 *   … --controls [--rounds 3]  link controls (decisions §16): plain links vs links with 5 redirect rules + 2 A/B
 *                 variants vs capped links (`maxClicks`: one Redis round trip per visit), each as a ratio to bare;
 *                 DL_BENCH_PERF_DIR=<dir> also writes a `perf record` of the edge for each round of each scenario
 *
 * The redirect app runs as in production (its entry, `apps/redirect/src/main.ts`, through
 * the require hook) with click capture on (every 302 queues a click) against its own
 * database and a private redis-server (so a few hundred thousand queued clicks never
 * land in the shared Redis). Goals: >= 60% of the bare rps; p99 < 10 ms at half that rate;
 * resident memory < 200 MB.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { unpackClickBatch } from '@dl/platform/click-codec';
import { Prisma } from '@dl/platform/db';
import { createTestEnv, ensureTemplateDatabase, TestEnv } from '@dl/testing';
import { autocannon, runAutocannon } from './autocannon';
import { serveBare, stopChild } from './bare-server';
import { IPHONE, MISSED_RULES } from './control-links';
import { openLoadRedirects } from './open-load';
import { cpuSeconds } from './proc-stats';
import { stallsSummary } from './stalls';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const log = (msg: string, extra: Record<string, unknown> = {}) =>
  process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);

// ───────────── parent ─────────────

interface Served {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

/** Resolves once something accepts connections on the port (the redirect's entry prints nothing when LOG_LEVEL=silent). */
async function waitForPort(port: number, proc: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`redirect exited with ${proc.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error('redirect did not start listening');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The redirect's production entry itself (`apps/redirect/src/main.ts`, with whatever it sets up at boot), configured by `env`. */
async function serve(env: Record<string, string>): Promise<Served> {
  const root = join(__dirname, '..');
  // DL_BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server process there.
  // DL_BENCH_PERF_DIR=<dir> (--controls): a `perf record` of the edge per scenario round, JS frames named (--perf-basic-prof).
  const profile = process.env.DL_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.DL_BENCH_CPU_PROF] : process.env.DL_BENCH_PERF_DIR ? ['--perf-basic-prof'] : [];
  if (env.DL_STALLS_OUT) profile.push('-r', join(root, 'bench/loop-stalls.js'));
  const port = await freePort();
  const proc = spawn(process.execPath, [...profile, join(root, 'tools/scripts/run.js'), join(root, 'apps/redirect/src/main.ts')], {
    cwd: root,
    env: { ...process.env, ...env, REDIRECT_PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = () => stopChild(proc);
  proc.stdout!.resume();
  await waitForPort(port, proc);
  return { url: `http://127.0.0.1:${port}`, proc, stop };
}

/** CPU µs per request to one decimal (a hot-path change is often ~1 µs of ~25). */
function microsPerRequest(cpuSecondsUsed: number, requests: number): number {
  return Math.round((cpuSecondsUsed * 1e7) / requests) / 10;
}

/** Resident memory of a process (current and peak), in MB. */
function rss(pid: number): { rssMb: number; peakRssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

function load(url: string, paths: string[], opts: Partial<autocannon.Options>): Promise<autocannon.Result> {
  let i = 0;
  return new Promise((resolve, reject) => {
    runAutocannon(
      {
        url,
        headers: { 'user-agent': IPHONE, 'accept-language': 'en-US,en;q=0.9' },
        requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
        ...opts,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** Rounds of one server, combined: total requests over total time; latency percentiles of the worst round. */
function combine(runs: autocannon.Result[]) {
  const total = runs.reduce((n, r) => n + r['3xx'], 0);
  const duration = runs.reduce((n, r) => n + r.duration, 0);
  return {
    requestsPerSecond: Math.round(total / duration),
    total,
    perRound: runs.map((r) => Math.round(r['3xx'] / r.duration)),
    non3xx: runs.reduce((n, r) => n + r.non2xx - r['3xx'], 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    latencyMsWorstRound: {
      p50: Math.max(...runs.map((r) => r.latency.p50)),
      p99: Math.max(...runs.map((r) => r.latency.p99)),
    },
  };
}

function summary(r: autocannon.Result) {
  return {
    requestsPerSecond: Math.round(r.requests.average),
    total: r.requests.total,
    non3xx: r.non2xx - r['3xx'],
    errors: r.errors,
    timeouts: r.timeouts,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
  };
}

/**
 * Latency at a fixed rate: open-loop Poisson arrivals (`open-load.ts`, latency from each
 * request's scheduled send), or with `--autocannon-half` autocannon's `overallRate` (each
 * connection's share of a second sent back to back at its start: a full-speed burst).
 */
async function halfRate(url: string, paths: string[], rate: number, seconds: number) {
  if (process.argv.includes('--autocannon-half')) {
    const r = await load(url, paths, { connections: 32, duration: seconds, overallRate: rate });
    return { ...summary(r), total: r['3xx'] };
  }
  const r = await openLoadRedirects({ url, paths, headers: { 'user-agent': IPHONE, 'accept-language': 'en-US,en;q=0.9' }, rate, seconds, maxSockets: 32 });
  return {
    requestsPerSecond: r.achievedRate,
    total: r.ok,
    non3xx: r.notOk,
    errors: r.errors,
    latencyMs: r.latency,
    fromWriteMs: r.fromWrite,
    sendLagMs: r.sendLag,
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createNetServer().listen(0, '127.0.0.1', () => {
      const a = srv.address();
      srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

async function privateRedis(dir: string): Promise<{ url: string; stop(): void }> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  await new Promise((r) => setTimeout(r, 300));
  return { url: `redis://127.0.0.1:${port}`, stop: () => proc.kill('SIGKILL') };
}

// ───────────── scenario `--branded`: the same links on a branded domain (decisions §15) ─────────────

const BRANDED_HOST = 'go.bench.test';

/** A verified domain of the bench organization with a copy of every link (same codes) on it. */
async function seedBrandedDomain(env: TestEnv, links: Prisma.LinkCreateManyInput[]): Promise<void> {
  const domain = await env.prisma.domain.create({
    data: { organizationId: links[0].organizationId, domain: BRANDED_HOST, status: 'verified', verifiedAt: new Date(), verificationToken: '0'.repeat(32) },
  });
  await env.prisma.link.createMany({
    data: links.map((l) => ({ ...l, originalUrl: `${l.originalUrl}?on=branded`, domainId: domain.id, domainName: BRANDED_HOST })),
  });
}

/**
 * The branded-host cost: rounds alternate between the bare server, the redirect app on its own
 * host and the redirect app with `Host: go.bench.test` (the same codes, links on the domain),
 * so all three see the same machine. The hot path should cost the same on both hosts (one more
 * map lookup, no extra round trip on a warm cache).
 */
async function brandedScenario(bare: Served, edge: Served, paths: string[], shape: { seconds: number; connections: number; links: number }) {
  const { seconds, connections } = shape;
  const branded = { headers: { 'user-agent': IPHONE, 'accept-language': 'en-US,en;q=0.9', host: BRANDED_HOST } };
  // The branded host must answer its own links (the desktop destination carries `on=branded`).
  const location = await new Promise<string | undefined>((resolve, reject) =>
    httpGet(`${edge.url}${paths[0]}`, { headers: { host: BRANDED_HOST } }, (res) => (res.resume(), resolve(res.headers.location))).on('error', reject),
  );
  if (!location?.includes('on=branded')) throw new Error(`the branded host answered ${location ?? 'no redirect'}`);
  log('warm-up (bare, service host, branded host)');
  await load(bare.url, paths, { connections: 16, duration: 2 });
  await load(edge.url, paths, { connections: 16, duration: 2 });
  await load(edge.url, paths, { connections: 16, duration: 2, ...branded });
  // More, shorter rounds (`--rounds`) follow a drifting host more closely; the per-round medians below ignore a disturbed round.
  const rounds = arg('rounds', 3);
  const slice = Math.max(1, Math.round(seconds / rounds));
  const runs = { bare: [] as autocannon.Result[], serviceHost: [] as autocannon.Result[], brandedHost: [] as autocannon.Result[] };
  const cpu = { bare: 0, serviceHost: 0, brandedHost: 0 };
  const measure = async (name: keyof typeof runs, server: Served, extra: Partial<autocannon.Options> = {}) => {
    const before = cpuSeconds(server.proc.pid!);
    runs[name].push(await load(server.url, paths, { connections, duration: slice, ...extra }));
    cpu[name] += cpuSeconds(server.proc.pid!) - before;
  };
  for (let r = 0; r < rounds; r++) {
    log('branded scenario round', { round: r + 1, of: rounds, seconds: slice, connections });
    await measure('bare', bare);
    await measure('serviceHost', edge);
    await measure('brandedHost', edge, branded);
  }
  const out = Object.fromEntries(
    (Object.keys(runs) as Array<keyof typeof runs>).map((name) => {
      const c = combine(runs[name]);
      return [name, { ...c, cpuMicrosecondsPerRequest: microsPerRequest(cpu[name], c.total) }];
    }),
  ) as Record<keyof typeof runs, ReturnType<typeof combine> & { cpuMicrosecondsPerRequest: number }>;
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return {
    bench: 'redirect --branded',
    ...shape,
    host: BRANDED_HOST,
    ...out,
    ratioToBare: {
      throughput: { serviceHost: ratio(out.serviceHost.requestsPerSecond, out.bare.requestsPerSecond), brandedHost: ratio(out.brandedHost.requestsPerSecond, out.bare.requestsPerSecond) },
      perCpuSecond: {
        serviceHost: ratio(out.bare.cpuMicrosecondsPerRequest, out.serviceHost.cpuMicrosecondsPerRequest),
        brandedHost: ratio(out.bare.cpuMicrosecondsPerRequest, out.brandedHost.cpuMicrosecondsPerRequest),
      },
    },
    brandedToServiceHost: {
      throughput: ratio(out.brandedHost.requestsPerSecond, out.serviceHost.requestsPerSecond),
      cpuPerRequest: ratio(out.brandedHost.cpuMicrosecondsPerRequest, out.serviceHost.cpuMicrosecondsPerRequest),
    },
  };
}

/** With DL_BENCH_PERF_DIR: `perf record -g` of one process until stop(), to `<dir>/<name>.data` (Linux perf must be installed). */
function perfRecord(pid: number, name: string): { stop(): Promise<void> } | null {
  const dir = process.env.DL_BENCH_PERF_DIR;
  if (!dir) return null;
  const perf = spawn('perf', ['record', '-F', '1999', '-g', '-p', String(pid), '-o', join(dir, `${name}.data`)], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => perf.once('exit', () => resolve()).once('error', () => resolve()));
  return { stop: () => (perf.kill('SIGINT'), exited) };
}

// ───────────── scenario `--controls`: rules + variants, and click caps (decisions §16) ─────────────

/** Copies of the links: `ctrl…` with the rules and two variants (no iosUrl, so the variant is the answer), `cap…` with a cap it never reaches. */
async function seedControlLinks(env: TestEnv, links: Prisma.LinkCreateManyInput[]): Promise<{ controls: string[]; capped: string[] }> {
  await env.prisma.link.createMany({
    data: links.flatMap((l, i) => [
      {
        ...l,
        shortCode: `ctrl${i.toString().padStart(4, '0')}`,
        iosUrl: null,
        redirectRules: MISSED_RULES,
        variants: [{ url: `https://a.example/landing/${i}`, weight: 50 }, { url: `https://b.example/landing/${i}`, weight: 50 }],
      },
      { ...l, shortCode: `cap${i.toString().padStart(4, '0')}`, maxClicks: 1_000_000_000 },
    ]),
  });
  return {
    controls: links.map((_, i) => `/ctrl${i.toString().padStart(4, '0')}?ref=bench`),
    capped: links.map((_, i) => `/cap${i.toString().padStart(4, '0')}?ref=bench`),
  };
}

/** EVALSHA calls the Redis server has run so far (the click cap's admit script; BullMQ's job scripts too, one per click batch). */
function evalshaCalls(redisUrl: string): number {
  const stats = execFileSync('redis-cli', ['-u', redisUrl, 'info', 'commandstats'], { encoding: 'utf8' });
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

/**
 * Rounds alternate bare, plain links, rule+variant links and capped links on the same machine.
 * The goal: each control scenario's ratio to bare within 10 % of the plain link's.
 */
async function controlsScenario(bare: Served, edge: Served, paths: { plain: string[]; controls: string[]; capped: string[] }, shape: { seconds: number; connections: number; links: number }, redisUrl: string) {
  const { seconds, connections } = shape;
  const probe = (path: string) =>
    new Promise<string | undefined>((resolve, reject) =>
      httpGet(`${edge.url}${path}`, { headers: { 'user-agent': IPHONE } }, (res) => (res.resume(), resolve(res.headers.location))).on('error', reject),
    );
  const variant = await probe(paths.controls[0]);
  if (!variant || !/^https:\/\/[ab]\.example\//.test(variant)) throw new Error(`the rules+variants link answered ${variant ?? 'no redirect'}`);
  if (!(await probe(paths.capped[0]))) throw new Error('the capped link did not redirect');
  log('warm-up (bare, plain, controls, capped)');
  await load(bare.url, paths.plain, { connections: 16, duration: 2 });
  for (const list of [paths.plain, paths.controls, paths.capped]) await load(edge.url, list, { connections: 16, duration: 2 });
  // More, shorter rounds (`--rounds`) follow a drifting host more closely; the per-round medians below ignore a disturbed round.
  const rounds = arg('rounds', 3);
  const slice = Math.max(1, Math.round(seconds / rounds));
  const names = ['bare', 'plain', 'rulesAndVariants', 'capped'] as const;
  type Name = (typeof names)[number];
  const runs = Object.fromEntries(names.map((n) => [n, [] as autocannon.Result[]])) as Record<Name, autocannon.Result[]>;
  const cpu = Object.fromEntries(names.map((n) => [n, 0])) as Record<Name, number>;
  const perRound = Object.fromEntries(names.map((n) => [n, [] as Array<{ rps: number; cpuPerRequest: number }>])) as Record<Name, Array<{ rps: number; cpuPerRequest: number }>>;
  const target: Record<Name, [Served, string[]]> = { bare: [bare, paths.plain], plain: [edge, paths.plain], rulesAndVariants: [edge, paths.controls], capped: [edge, paths.capped] };
  let cappedScriptCalls = 0;
  for (let r = 0; r < rounds; r++) {
    log('controls scenario round', { round: r + 1, of: rounds, seconds: slice, connections });
    for (const name of names) {
      const [server, list] = target[name];
      const scriptCallsBefore = name === 'capped' ? evalshaCalls(redisUrl) : 0;
      const before = cpuSeconds(server.proc.pid!);
      const perf = name === 'bare' ? null : perfRecord(server.proc.pid!, `${name}-round${r + 1}`);
      const run = await load(server.url, list, { connections, duration: slice });
      await perf?.stop();
      const used = cpuSeconds(server.proc.pid!) - before;
      if (name === 'capped') cappedScriptCalls += evalshaCalls(redisUrl) - scriptCallsBefore;
      runs[name].push(run);
      cpu[name] += used;
      perRound[name].push({ rps: run.requests.total / slice, cpuPerRequest: used / Math.max(1, run.requests.total) });
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  /** A scenario's ratio to bare divided by the plain link's, within each round (bare, plain and the scenario back to back), median over rounds. */
  const roundMedian = (name: 'rulesAndVariants' | 'capped') => ({
    throughput: Math.round(median(perRound[name].map((x, r) => x.rps / perRound.plain[r].rps)) * 100) / 100,
    perCpuSecond: Math.round(median(perRound[name].map((x, r) => perRound.plain[r].cpuPerRequest / x.cpuPerRequest)) * 100) / 100,
  });
  const out = Object.fromEntries(
    names.map((name) => {
      const c = combine(runs[name]);
      return [name, { ...c, cpuMicrosecondsPerRequest: microsPerRequest(cpu[name], c.total) }];
    }),
  ) as Record<Name, ReturnType<typeof combine> & { cpuMicrosecondsPerRequest: number }>;
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  const toBare = (name: Name) => ({
    throughput: ratio(out[name].requestsPerSecond, out.bare.requestsPerSecond),
    perCpuSecond: ratio(out.bare.cpuMicrosecondsPerRequest, out[name].cpuMicrosecondsPerRequest),
  });
  const plain = toBare('plain');
  return {
    bench: 'redirect --controls',
    ...shape,
    ...out,
    ratioToBare: { plain, rulesAndVariants: toBare('rulesAndVariants'), capped: toBare('capped') },
    /** Each scenario's ratio to bare divided by the plain link's (goal: >= 0.9). */
    relativeToPlain: {
      rulesAndVariants: { throughput: ratio(toBare('rulesAndVariants').throughput, plain.throughput), perCpuSecond: ratio(toBare('rulesAndVariants').perCpuSecond, plain.perCpuSecond) },
      capped: { throughput: ratio(toBare('capped').throughput, plain.throughput), perCpuSecond: ratio(toBare('capped').perCpuSecond, plain.perCpuSecond) },
    },
    /** The same, round by round (each round's own bare and plain), median over the rounds. */
    relativeToPlainRoundMedian: { rulesAndVariants: roundMedian('rulesAndVariants'), capped: roundMedian('capped') },
    /** Capped visits admitted per Redis script call (the visits of one event-loop turn share a call; the click batches' job scripts counted in). */
    cappedVisitsPerScriptCall: Math.round((out.capped.total / Math.max(1, cappedScriptCalls)) * 10) / 10,
  };
}

async function main(): Promise<void> {
  const seconds = arg('seconds', 10);
  const connections = arg('connections', 64);
  const linkCount = arg('links', 100);
  await ensureTemplateDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'dl-bench-redirect-'));
  const redis = await privateRedis(dir);
  const env = await createTestEnv({ REDIS_URL: redis.url, CLICK_FALLBACK_DIR: join(dir, 'fallback'), LOG_LEVEL: 'silent' });
  const servers: Served[] = [];
  try {
    const org = await env.prisma.organization.create({ data: { name: 'Bench', slug: `bench-${Date.now()}` } });
    const user = await env.prisma.user.create({ data: { email: `bench-${Date.now()}@example.com`, name: 'B', passwordHash: 'x' } });
    const template = await env.prisma.template.create({ data: { organizationId: org.id, name: 'T', slug: 't' } });
    const links = Array.from({ length: linkCount }, (_, i) => ({
      organizationId: org.id,
      userId: user.id,
      templateId: template.id,
      shortCode: `bench${i.toString().padStart(4, '0')}`,
      originalUrl: `https://example.com/landing/${i}`,
      iosUrl: `https://apps.apple.com/app/id${100000 + i}`,
      utmParameters: { source: 'bench', medium: 'loopback' },
    }));
    await env.prisma.link.createMany({ data: links });
    const paths = links.map((l) => `/${l.shortCode}?ref=bench`);
    const map = links.map((l) => [l.shortCode, l.iosUrl] as [string, string]);
    if (process.argv.includes('--branded')) await seedBrandedDomain(env, links);
    const controlPaths = process.argv.includes('--controls') ? await seedControlLinks(env, links) : null;

    const raw = Object.fromEntries(Object.entries(env.config).map(([k, v]) => [k, String(v)]));
    const bare = await serveBare(new Map(map), process.env.DL_BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.DL_BENCH_CPU_PROF] : []);
    servers.push(bare);
    const stallsDir = process.argv.includes('--stalls') ? join(dir, 'stalls') : null;
    if (stallsDir) mkdirSync(stallsDir);
    const edge = await serve(stallsDir ? { ...raw, DL_STALLS_OUT: stallsDir, DL_STALLS_MS: String(seconds * 1000) } : raw);
    servers.push(edge);

    if (process.argv.includes('--branded')) {
      process.stdout.write(`${JSON.stringify(await brandedScenario(bare, edge, paths, { seconds, connections, links: linkCount }), null, 2)}\n`);
      return;
    }

    if (controlPaths) {
      const result = await controlsScenario(bare, edge, { plain: paths, ...controlPaths }, { seconds, connections, links: linkCount }, redis.url);
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }

    if (process.argv.includes('--breakdown')) {
      // Where the redirect's CPU goes: the same app on paths that stop at each stage.
      const stages: Record<string, string[]> = {
        'unrouted path (404 page, no lookup)': ['/a/b'],
        'unknown code (404 page, negative cache)': ['/Zz9unknown'],
        'live link (302 + click capture)': paths,
      };
      const out: Record<string, unknown> = {};
      for (const [name, list] of Object.entries(stages)) {
        await load(edge.url, list, { connections: 16, duration: 1 });
        const before = cpuSeconds(edge.proc.pid!);
        const r = await load(edge.url, list, { connections, duration: 4 });
        const used = cpuSeconds(edge.proc.pid!) - before;
        out[name] = { requestsPerSecond: Math.round(r.requests.average), cpuMicrosecondsPerRequest: microsPerRequest(used, r.requests.total) };
      }
      const before = cpuSeconds(bare.proc.pid!);
      const r = await load(bare.url, paths, { connections, duration: 4 });
      out['bare node:http 302'] = { requestsPerSecond: Math.round(r.requests.average), cpuMicrosecondsPerRequest: microsPerRequest(cpuSeconds(bare.proc.pid!) - before, r.requests.total) };
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      return;
    }

    log('warm-up');
    await load(bare.url, paths, { connections: 16, duration: 2 });
    await load(edge.url, paths, { connections: 16, duration: 2 });
    const memoryAfterWarmup = rss(edge.proc.pid!);

    // Rounds alternate between the two servers so both see the same (shared, noisy) machine;
    // CPU time per request (from /proc) is the load-independent comparison.
    const rounds = 3;
    const slice = Math.max(1, Math.round(seconds / rounds));
    const bareRuns: autocannon.Result[] = [];
    const edgeRuns: autocannon.Result[] = [];
    let bareCpu = 0;
    let edgeCpu = 0;
    for (let r = 0; r < rounds; r++) {
      log('max throughput round', { round: r + 1, of: rounds, seconds: slice, connections });
      let before = cpuSeconds(bare.proc.pid!);
      bareRuns.push(await load(bare.url, paths, { connections, duration: slice }));
      bareCpu += cpuSeconds(bare.proc.pid!) - before;
      before = cpuSeconds(edge.proc.pid!);
      edgeRuns.push(await load(edge.url, paths, { connections, duration: slice }));
      edgeCpu += cpuSeconds(edge.proc.pid!) - before;
    }
    const bareMax = combine(bareRuns);
    const edgeMax = combine(edgeRuns);
    // `--rate N` fixes this round's rate, so runs of two trees compare their CPU per request at the same rate.
    const half = arg('rate', 0) || Math.round(edgeMax.requestsPerSecond / 2);
    log('latency at half the redirect rate', { rate: half, seconds });
    const halfCpuBefore = cpuSeconds(edge.proc.pid!);
    if (stallsDir) edge.proc.kill('SIGUSR2');
    const edgeHalf = await halfRate(edge.url, paths, half, seconds);
    const halfCpu = cpuSeconds(edge.proc.pid!) - halfCpuBefore;
    // The floor of the same measurement on this machine: the bare server at the same rate.
    const bareHalf = await halfRate(bare.url, paths, half, seconds);
    const memory = rss(edge.proc.pid!);

    // Every 302 queued its click (in `click.batch` jobs: one per flush of the edge's buffer).
    const queue = new Queue('clicks', { connection: { url: redis.url }, prefix: `${env.config.REDIS_PREFIX}:bull` });
    await new Promise((r) => setTimeout(r, 500));
    const queued = { waiting: 0, jobs: 0 };
    for (let start = 0; ; start += 1000) {
      const page = await queue.getJobs(['waiting'], start, start + 999);
      for (const job of page) queued.waiting += job.name === 'click.batch' ? (unpackClickBatch(job.data)?.length ?? 0) : 1;
      queued.jobs += page.length;
      if (page.length < 1000) break;
    }
    await queue.close();
    const redirects302 = edgeMax.total + edgeHalf.total;

    const result = {
      bench: 'redirect',
      seconds,
      connections,
      links: linkCount,
      bare: { ...bareMax, cpuMicrosecondsPerRequest: microsPerRequest(bareCpu, bareMax.total) },
      redirect: { ...edgeMax, cpuMicrosecondsPerRequest: microsPerRequest(edgeCpu, edgeMax.total) },
      ratioToBare: {
        throughput: Math.round((edgeMax.requestsPerSecond / bareMax.requestsPerSecond) * 100) / 100,
        /** Requests per CPU-second, redirect ÷ bare: the ratio on an otherwise idle core. */
        perCpuSecond: Math.round(((edgeMax.total / edgeCpu) / (bareMax.total / bareCpu)) * 100) / 100,
      },
      redirectAtHalfRate: { targetRps: half, ...edgeHalf, cpuMicrosecondsPerRequest: microsPerRequest(halfCpu, edgeHalf.total) },
      bareAtHalfRate: { targetRps: half, ...bareHalf },
      redirectMemory: { afterWarmup: memoryAfterWarmup, afterRuns: memory },
      ...(stallsDir ? { redirectStallsAtHalfRate: await stallsSummary(stallsDir, edge.proc.pid!, seconds) } : {}),
      clicks: { redirects302IncludingWarmup: redirects302, queuedIncludingWarmup: queued.waiting, queueJobs: queued.jobs },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const s of servers) await s.stop();
    await env.teardown().catch(() => undefined);
    redis.stop();
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
