/**
 * Shared by the ingest and events benchmarks: runs an app (api | ingest | worker) in a
 * child process, so the load generator never shares the server's event loop.
 *
 *   const server = await serveInChild('ingest', env.config); ... await server.stop();
 *
 * When run directly (the child): reads the config from DL_BENCH_CONFIG and prints `READY <url>`.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApiApp } from '@dl/apps/api';
import { createIngestApp } from '@dl/apps/ingest';
import { createWorkerApp } from '@dl/apps/worker';
import { AppConfig, loadConfig } from '@dl/platform/config';

/** The part of autocannon's API these benchmarks use (the package ships no types). */
export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  duration?: number;
  overallRate?: number;
  requests?: Array<{ setupRequest: (req: Record<string, unknown>) => Record<string, unknown> }>;
}
export interface LoadResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  duration: number;
  latency: { p50: number; p90: number; p99: number; max: number };
}
const autocannon = require('autocannon') as (opts: LoadOptions) => Promise<LoadResult>;

/** Runs autocannon (promise form). */
export function load(opts: LoadOptions): Promise<LoadResult> {
  return autocannon(opts);
}

export interface OpenLoadOptions {
  url: string;
  /** Mean arrivals per second. */
  rate: number;
  seconds: number;
  /** Exponential gaps (a Poisson process, what a fleet of independent devices sends) or a fixed gap. */
  arrivals?: 'poisson' | 'uniform';
  /** Keep-alive sockets the client may open (more are never needed than requests in flight). */
  maxSockets?: number;
  request: (i: number) => { method: string; path: string; headers: Record<string, string>; body: string };
}

export interface OpenLoadResult {
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  achievedRate: number;
  /** From each request's SCHEDULED send time to its complete response (ms): a slow answer never delays later sends. */
  latency: { p50: number; p90: number; p99: number; max: number };
  maxInFlight: number;
}

/**
 * Open-loop load at a fixed mean arrival rate: request i leaves at its scheduled time whatever
 * the answers before it did (autocannon's `overallRate` instead lets each connection send its
 * share back to back at the start of every second, a closed-loop burst, then wait).
 */
export function openLoad(opts: OpenLoadOptions): Promise<OpenLoadResult> {
  const target = new URL(opts.url);
  const agent = new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 256 });
  const total = Math.round(opts.rate * opts.seconds);
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let done = 0;
  // Deterministic exponential gaps (xorshift), so runs are comparable.
  let seed = 0x2545f491;
  const uniform = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return ((seed >>> 0) + 1) / 4294967297;
  };
  const schedule: number[] = [];
  let at = 0;
  for (let i = 0; i < total; i++) {
    schedule.push(at);
    at += opts.arrivals === 'uniform' ? 1000 / opts.rate : (-Math.log(uniform()) * 1000) / opts.rate;
  }
  return new Promise((resolve) => {
    const t0 = performance.now();
    let next = 0;
    const finish = () => {
      agent.destroy();
      latencies.sort((a, b) => a - b);
      const q = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] * 10) / 10;
      resolve({
        sent: total,
        ok,
        non2xx,
        errors,
        achievedRate: Math.round(ok / ((performance.now() - t0) / 1000)),
        latency: { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: Math.round(latencies[latencies.length - 1] * 10) / 10 },
        maxInFlight,
      });
    };
    const send = (i: number) => {
      const scheduled = t0 + schedule[i];
      const r = opts.request(i);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const settle = (status: number) => {
        inFlight--;
        if (status >= 200 && status < 300) {
          ok++;
          latencies.push(performance.now() - scheduled);
        } else if (status) non2xx++;
        else errors++;
        if (++done === total) finish();
      };
      const req = httpRequest(
        { host: target.hostname, port: target.port, method: r.method, path: r.path, headers: { ...r.headers, 'content-length': Buffer.byteLength(r.body) }, agent },
        (res) => {
          res.resume();
          res.on('end', () => settle(res.statusCode ?? 0));
        },
      );
      req.on('error', () => settle(0));
      req.end(r.body);
    };
    const tick = () => {
      const now = performance.now() - t0;
      while (next < total && schedule[next] <= now) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, Math.min(1, schedule[next] - (performance.now() - t0))));
    };
    tick();
  });
}

const FACTORIES = { api: createApiApp, ingest: createIngestApp, worker: createWorkerApp };
export type BenchApp = keyof typeof FACTORIES;

export interface ChildServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

export const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);

/** CPU time (user + system, ms) a process has used so far (Linux /proc; clock ticks of 10 ms). */
export function cpuMs(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

export function serveInChild(app: BenchApp, config: AppConfig, execArgv: string[] = []): Promise<ChildServer> {
  const root = join(__dirname, '..');
  const raw = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)]));
  const child = spawn(process.execPath, [...execArgv, join(root, 'tools/scripts/run.js'), join(__dirname, 'ingest-support.ts'), app], {
    cwd: root,
    env: { ...process.env, DL_BENCH_CONFIG: JSON.stringify(raw) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.once('exit', (code) => reject(new Error(`${app} exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = /READY (\S+)/.exec(buffer);
      if (m) {
        child.removeAllListeners('exit');
        resolve({
          url: m[1],
          child,
          stop: () =>
            new Promise<void>((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
  });
}

async function childMain(): Promise<void> {
  const app = process.argv[2] as BenchApp;
  const config = loadConfig(JSON.parse(process.env.DL_BENCH_CONFIG ?? '{}'));
  const server = await FACTORIES[app](config);
  await server.listen(0, '127.0.0.1');
  const address = server.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`READY http://127.0.0.1:${port}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
  // The parent holds our stdin open: when it dies (killed, timed out), we go too.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

if (process.argv[1] === __filename && process.env.DL_BENCH_CONFIG) void childMain();
