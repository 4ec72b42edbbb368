/**
 * Shared by the ingest and events benchmarks: runs an app (api | ingest | worker) in a
 * child process, so the load generator never shares the server's event loop.
 *
 *   const server = await serveInChild('ingest', env.config); ... await server.stop();
 *
 * When run directly (the child): reads the config from DL_BENCH_CONFIG and prints `READY <url>`.
 */
import { ChildProcess, spawn } from 'node:child_process';
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

export { openLoad } from './open-load';
export type { OpenLoadResult } from './open-load';

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
