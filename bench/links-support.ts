/**
 * Shared by the links benchmarks: a database with one UNLIMITED organization (owner
 * API key, `default` template), the api in a child process (so the load generator
 * never shares its event loop), and small helpers.
 *
 * When run directly (the child): reads the config from DL_LINKS_BENCH_CONFIG and prints `READY <url>`.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { createApiApp } from '@dl/apps/api';
import { AppConfig, loadConfig } from '@dl/platform/config';
import { Tier } from '@dl/platform/db';
import { createTestEnv, ensureTemplateDatabase, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';

export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

export const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);

export interface LinksBench {
  env: TestEnv;
  org: SeededOrganization;
  url: string;
  pid: number;
  auth: { authorization: string; 'content-type': string };
  /** Resident memory of the api process, in MB. */
  rssMb(): number;
  /**
   * CPU milliseconds (user + system, from /proc) used so far by the api process and by the
   * Postgres backends connected to the bench database: the per-request cost that a busy
   * machine does not distort the way it distorts wall-clock latency.
   */
  cpuMs(): Promise<{ api: number; db: number }>;
  close(): Promise<void>;
}

export async function startLinksBench(): Promise<LinksBench> {
  Logger.overrideLogger(false);
  await ensureTemplateDatabase();
  const env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'silent' });
  const org = await seedOrganization(env, { tier: Tier.UNLIMITED, name: 'Bench' });
  const child = await serveApi(env.config);
  return {
    env,
    org,
    url: child.url,
    pid: child.child.pid!,
    auth: { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json' },
    rssMb: () => {
      const status = readFileSync(`/proc/${child.child.pid}/status`, 'utf8');
      return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    },
    cpuMs: async () => {
      const backends = await env.prisma.$queryRaw<Array<{ pid: number }>>`
        SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      return { api: processCpuMs(child.child.pid!), db: backends.reduce((sum, b) => sum + processCpuMs(b.pid), 0) };
    },
    close: async () => {
      await child.stop();
      await env.teardown();
    },
  };
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process in ms (0 when it has exited). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU ms per request between two cpuMs() readings. */
export function cpuPerRequest(before: { api: number; db: number }, after: { api: number; db: number }, requests: number) {
  const per = (a: number, b: number) => Math.round(((b - a) / Math.max(1, requests)) * 100) / 100;
  return { api: per(before.api, after.api), db: per(before.db, after.db) };
}

function serveApi(config: AppConfig): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const root = join(__dirname, '..');
  const raw = Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)]));
  // DL_LINKS_BENCH_PROFILE=<dir> writes a CPU profile of the api process there.
  const profile = process.env.DL_LINKS_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.DL_LINKS_BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, join(root, 'tools/scripts/run.js'), join(__dirname, 'links-support.ts')], {
    cwd: root,
    env: { ...process.env, DL_LINKS_BENCH_CONFIG: JSON.stringify(raw) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.once('exit', (code) => reject(new Error(`api exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = /READY (\S+)/.exec(buffer);
      if (!m) return;
      child.removeAllListeners('exit');
      resolve({
        url: m[1],
        child,
        stop: () => new Promise<void>((done) => {
          child.once('exit', () => done());
          child.kill('SIGTERM');
        }),
      });
    });
  });
}

export interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  non2xx: number;
  errors: number;
}

/** autocannon ships no types: a typed handle on the options we use. */
export const autocannon = require('autocannon') as (opts: {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  duration?: number;
  amount?: number;
}) => Promise<AutocannonResult>;

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function child(): Promise<void> {
  Logger.overrideLogger(false);
  const config = loadConfig(JSON.parse(process.env.DL_LINKS_BENCH_CONFIG!));
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  process.stdout.write(`READY http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

if (process.argv[1] === __filename && process.env.DL_LINKS_BENCH_CONFIG) void child();
