/**
 * The whole pipeline as `bench/pipeline.ts` and `bench/pipeline-variants.ts` run it: a private
 * redis-server and database, one organization with `linkCount` links, the redirect and the worker
 * as separate production processes, each in a session of its own as `npm start` runs them
 * (spawnApp: ownSession), the worker at the production CPU priority, and the bare `node:http`
 * server with the same links for the floor.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, configEnv, createTestEnv, ensureTemplateDatabase, PrivateRedis, productionWorkerNice, spawnApp, TestEnv } from '@dl/testing';
import { BareServer, serveBare } from './bare-server';

export interface PipelineOptions {
  /** Temp dir prefix, e.g. 'dl-bench-pipeline-'. */
  name: string;
  linkCount: number;
  /** Short code prefix of the links. */
  codePrefix: string;
  /** More service configuration (both apps). */
  config?: Record<string, string>;
  /** Node flags for both apps (DL_NODE_ARGS). */
  nodeArgs?: string;
  /** Record the redirect's event-loop stalls (bench/loop-stalls.js) in windows of this many ms. */
  stallsMs?: number;
}

export interface Pipeline {
  env: TestEnv;
  organizationId: string;
  links: Array<{ shortCode: string; iosUrl: string }>;
  /** `/<code>?ref=bench` of every link. */
  paths: string[];
  redirect: AppProcess;
  worker: AppProcess;
  bare: BareServer;
  /** The private redis-server's process id (for its CPU time). */
  redisPid: number;
  /** Where loop-stalls.js writes, when `stallsMs` was given. */
  stallsDir: string | null;
  /** The worker's nice (WORKER_NICE it was started with). */
  workerNice: number;
  stop(): Promise<void>;
}

export async function startPipeline(o: PipelineOptions): Promise<Pipeline> {
  await ensureTemplateDatabase();
  const dir = mkdtempSync(join(tmpdir(), o.name));
  const redis = await PrivateRedis.create(dir, { appendonly: false });
  const workerNice = productionWorkerNice();
  const env = await createTestEnv({ REDIS_URL: redis.url, CLICK_FALLBACK_DIR: join(dir, 'fallback'), LOG_LEVEL: 'warn', ...workerNice, ...o.config });
  const apps: AppProcess[] = [];
  let bare: BareServer | undefined;
  const stop = async () => {
    for (const a of apps.reverse()) await a.stop('SIGTERM').catch(() => undefined);
    await bare?.stop();
    await env.teardown().catch(() => undefined);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const org = await env.prisma.organization.create({ data: { name: 'Bench', slug: `bench-${Date.now()}` } });
    const user = await env.prisma.user.create({ data: { email: `bench-${Date.now()}@example.com`, name: 'B', passwordHash: 'x' } });
    const template = await env.prisma.template.create({ data: { organizationId: org.id, name: 'T', slug: 't' } });
    const links = Array.from({ length: o.linkCount }, (_, i) => ({
      organizationId: org.id,
      userId: user.id,
      templateId: template.id,
      shortCode: `${o.codePrefix}${i.toString().padStart(4, '0')}`,
      originalUrl: `https://example.com/landing/${i}`,
      iosUrl: `https://apps.apple.com/app/id${100000 + i}`,
      utmParameters: { source: 'bench', medium: 'loopback' },
    }));
    await env.prisma.link.createMany({ data: links });

    // The apps get only their configuration, plus the bench preloads' own settings (DL_ALLOC_*, bench/alloc-sampling.js).
    const preloadEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith('DL_ALLOC_') && v !== undefined)) as Record<string, string>;
    const appEnv: Record<string, string> = { ...configEnv(env.config), ...preloadEnv, ...(o.nodeArgs ? { DL_NODE_ARGS: o.nodeArgs } : {}) };
    const stallsDir = o.stallsMs ? join(dir, 'stalls') : null;
    if (stallsDir) mkdirSync(stallsDir);
    const stallsEnv: Record<string, string> = stallsDir
      ? { DL_NODE_ARGS: [appEnv.DL_NODE_ARGS, `-r ${join(__dirname, 'loop-stalls.js')}`].filter(Boolean).join(' '), DL_STALLS_OUT: stallsDir, DL_STALLS_MS: String(o.stallsMs) }
      : {};
    const redirect = await spawnApp('redirect', { ...appEnv, ...stallsEnv }, undefined, { ownSession: true });
    apps.push(redirect);
    const worker = await spawnApp('worker', appEnv, undefined, { ownSession: true });
    apps.push(worker);
    bare = await serveBare(new Map(links.map((l) => [l.shortCode, l.iosUrl])));
    return {
      env,
      organizationId: org.id,
      links,
      paths: links.map((l) => `/${l.shortCode}?ref=bench`),
      redirect,
      worker,
      bare,
      redisPid: redis.pid!,
      stallsDir,
      workerNice: Number(workerNice.WORKER_NICE ?? 0),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A progress line on stderr (stdout carries the result). */
export const log = (msg: string, extra: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ msg, ...extra })}\n`);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs a bench's main and exits with its outcome (0, or 1 with the error printed). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
