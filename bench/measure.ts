/**
 * How the benches measure: one argument parser, progress lines on stderr (stdout carries the
 * result), `wrk` as the load generator for throughput, and CPU time and memory from /proc.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PrismaService } from '@dl/platform/db';

function rawArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
/** `--name <number>`, else `fallback`. */
export const arg = (name: string, fallback: number): number => Number(rawArg(name) ?? fallback);
/** `--name <text>`, else `fallback`. */
export const argText = (name: string, fallback: string): string => rawArg(name) ?? fallback;
/** Whether `--name` was given. */
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

/** A progress line on stderr. */
export const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
/** The `p`th percentile of `xs` (nearest rank below). */
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
export const median = (xs: number[]) => percentile(xs, 50);
/** p50, p90, p99 and max of some timings (ms), to 0.1. */
export const timings = (xs: number[]) => ({ p50: round(percentile(xs, 50)), p90: round(percentile(xs, 90)), p99: round(percentile(xs, 99)), max: round(Math.max(...xs)) });
/** Seconds since `performance.now()` was `t`, to 0.1. */
export const secondsSince = (t: number) => round((performance.now() - t) / 1000);
/** `min-max` of a few runs, the range a noisy host gives. */
export const span = (xs: number[]) => `${Math.min(...xs)}-${Math.max(...xs)}`;
/** Prints the result as JSON on stdout, with the 1-minute load average: the host is shared. */
export const print = (result: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ ...result, loadAverage: round(loadavg()[0]) }, null, 2)}\n`);


/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of several processes together. */
export const cpuSecondsOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);

/** CPU µs per request, to one decimal. */
export const microsPer = (cpuSecondsUsed: number, requests: number) => round((cpuSecondsUsed * 1e6) / Math.max(1, requests));

/** Resident memory of a process in MB, now and at its peak (0 once it is gone). */
export function memoryMb(pid: number): { rss: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/**
 * CPU seconds so far of the Postgres backends serving the bench's own database (never the other
 * databases of a shared server). Read before and after: a backend that connects meanwhile counts whole.
 */
export async function databaseCpuSeconds(prisma: PrismaService): Promise<number> {
  const rows = await prisma.$queryRaw<Array<{ pid: number }>>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
  return cpuSecondsOf(rows.map((r) => r.pid));
}

export interface WrkOptions {
  url: string;
  /** Paths requested in turn (default: the URL's own). */
  paths?: string[];
  method?: string;
  headers?: Record<string, string>;
  /** Header sets sent in turn instead of `headers` (visits from many browsers and addresses). */
  headerSets?: Array<Record<string, string>>;
  body?: string;
  connections: number;
  seconds: number;
  /** wrk's threads (default 1: one core for the load, the other for the server). */
  threads?: number;
  /** Lua defining `request = function() … end` (a body per request, e.g. unique ids); replaces `paths`/`headerSets`. */
  luaRequest?: string;
}

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  /** Answers other than 2xx and 3xx. */
  notOk: number;
  /** Connect, read and write errors and timeouts. */
  errors: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
}

/** A Lua string literal; a `host` header is wrk's own `Host` (else the request carries two). */
const luaKey = (k: string) => luaString(k.toLowerCase() === 'host' ? 'Host' : k);
const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** A closed-loop load of `connections` for `seconds` by `wrk` (Debian's package), which needs far less CPU per request than any server here. */
export function wrk(o: WrkOptions): Promise<WrkResult> {
  if (!existsSync('/usr/bin/wrk')) throw new Error('wrk is not installed: apt-get install -y wrk');
  const lines = [
    ...(o.method ? [`wrk.method = ${luaString(o.method)}`] : []),
    ...(o.body ? [`wrk.body = ${luaString(o.body)}`] : []),
    ...Object.entries(o.headers ?? {}).map(([k, v]) => `wrk.headers[${luaKey(k)}] = ${luaString(v)}`),
  ];
  const table = (h: Record<string, string>) => `{${Object.entries(h).map(([k, v]) => `[${luaKey(k)}] = ${luaString(v)}`).join(', ')}}`;
  if (o.luaRequest) lines.push(o.luaRequest);
  else if ((o.paths && o.paths.length > 1) || o.headerSets) {
    lines.push(`local paths = {${(o.paths ?? [new URL(o.url).pathname]).map(luaString).join(', ')}}`, 'local i = 0');
    if (!o.headerSets) lines.push('request = function() i = i + 1; return wrk.format(nil, paths[i % #paths + 1]) end');
    else {
      lines.push(`local sets = {${o.headerSets.map(table).join(',\n')}}`);
      lines.push('request = function() i = i + 1; return wrk.format(nil, paths[i % #paths + 1], sets[i % #sets + 1]) end');
    }
  }
  lines.push(
    'done = function(s, lat)',
    `  io.write(string.format('WRK_RESULT {"requests":%d,"us":%d,"errors":%d,"status":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',`,
    '    s.requests, s.duration, s.errors.connect + s.errors.read + s.errors.write + s.errors.timeout, s.errors.status,',
    '    lat:percentile(50), lat:percentile(90), lat:percentile(99), lat.max))',
    'end',
  );
  const dir = mkdtempSync(join(tmpdir(), 'dl-wrk-'));
  writeFileSync(join(dir, 'bench.lua'), lines.join('\n'));
  const url = o.paths?.length === 1 ? new URL(o.paths[0], o.url).href : o.url;
  const threads = String(o.threads ?? 1);
  const args = ['-t', threads, '-c', String(Math.max(o.connections, Number(threads))), '-d', `${o.seconds}s`, '--timeout', '10s', '-s', join(dir, 'bench.lua'), url];
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      const m = /WRK_RESULT (\{.*\})/.exec(out);
      if (code !== 0 || !m) return reject(new Error(`wrk exited with ${code}: ${out}`));
      const r = JSON.parse(m[1]) as Record<string, number>;
      const ms = (us: number) => round(us / 1000, 2);
      resolve({
        requests: r.requests,
        requestsPerSecond: Math.round(r.requests / (r.us / 1e6)),
        notOk: r.status,
        errors: r.errors,
        latencyMs: { p50: ms(r.p50), p90: ms(r.p90), p99: ms(r.p99), max: ms(r.max) },
      });
    });
  });
}

/** Runs `wrk` and reads the CPU time the `pids` used meanwhile: requests per second and CPU µs per request. */
export async function wrkWithCpu(pids: number[], o: WrkOptions): Promise<WrkResult & { cpuMicrosPerRequest: number }> {
  const before = cpuSecondsOf(pids);
  const r = await wrk(o);
  return { ...r, cpuMicrosPerRequest: microsPer(cpuSecondsOf(pids) - before, r.requests) };
}

export type CpuRun = WrkResult & { cpuMicrosPerRequest: number };

/**
 * `rounds` rounds of every scenario in turn (a shared host's drift then hits them alike), each a
 * `wrk` load with the CPU time of its `pids`; no answer, one other than 2xx/3xx or an error fails the bench.
 */
export async function alternate(scenarios: Array<{ name: string; pids: number[]; load: WrkOptions }>, rounds: number): Promise<Record<string, CpuRun[]>> {
  const runs: Record<string, CpuRun[]> = {};
  for (let r = 1; r <= rounds; r++) {
    for (const s of scenarios) {
      const run = await wrkWithCpu(s.pids, s.load);
      if (run.notOk || run.errors || !run.requests) throw new Error(`${s.name}: ${run.requests} answers, ${run.notOk} unexpected, ${run.errors} errors`);
      (runs[s.name] ??= []).push(run);
      log('round', { round: r, of: rounds, scenario: s.name, requestsPerSecond: run.requestsPerSecond, cpuMicrosPerRequest: run.cpuMicrosPerRequest, p99Ms: run.latencyMs.p99 });
    }
  }
  return runs;
}

/** Two seconds of every scenario, unmeasured and unchecked (a cold server may answer nothing in that time); their results. */
export async function warmUp(scenarios: Array<{ load: WrkOptions }>, connections?: number): Promise<WrkResult[]> {
  const results: WrkResult[] = [];
  for (const s of scenarios) results.push(await wrk({ ...s.load, seconds: 2, connections: connections ?? s.load.connections }));
  return results;
}

/** Per scenario: medians and ranges of req/s and CPU µs per request, median p50, worst p99; and every other scenario's medians ÷ `base`'s. */
export function summarize(runs: Record<string, CpuRun[]>, base: string) {
  const medians = Object.fromEntries(
    Object.entries(runs).map(([name, list]) => {
      const [rps, cpu] = [list.map((x) => x.requestsPerSecond), list.map((x) => x.cpuMicrosPerRequest)];
      return [name, { requestsPerSecond: median(rps), range: span(rps), cpuMicrosPerRequest: median(cpu), cpuRange: span(cpu), p50Ms: median(list.map((x) => x.latencyMs.p50)), p99MsWorstRound: Math.max(...list.map((x) => x.latencyMs.p99)) }];
    }),
  );
  const ratio = (s: (typeof medians)[string]) => ({ throughput: round(s.requestsPerSecond / medians[base].requestsPerSecond, 3), cpuPerRequest: round(s.cpuMicrosPerRequest / medians[base].cpuMicrosPerRequest, 3) });
  return { medians, ratioTo: { [base]: Object.fromEntries(Object.entries(medians).filter(([name]) => name !== base).map(([name, s]) => [name, ratio(s)])) } };
}

/**
 * `rounds` runs of `pass`, which returns how many items it handled (`after` runs untimed after
 * each): items per second of wall time and per CPU second of this process, per round.
 */
export async function rateRounds(rounds: number, pass: () => Promise<number> | number, after?: () => Promise<unknown>): Promise<{ perSecond: number[]; perCpuSecond: number[] }> {
  const out = { perSecond: [] as number[], perCpuSecond: [] as number[] };
  for (let r = 1; r <= rounds; r++) {
    const [t, cpu] = [performance.now(), process.cpuUsage()];
    const n = await pass();
    const used = process.cpuUsage(cpu);
    out.perSecond.push(Math.round(n / ((performance.now() - t) / 1000)));
    out.perCpuSecond.push(Math.round(n / ((used.user + used.system) / 1e6)));
    log('round', { round: r, of: rounds, items: n, perSecond: out.perSecond[r - 1], perCpuSecond: out.perCpuSecond[r - 1] });
    await after?.();
  }
  return out;
}

