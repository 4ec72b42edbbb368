/**
 * The redirect edge as the redirect and pipeline benches run it: a private redis-server (queued
 * clicks never land in the shared Redis), a database of its own with one organization's links,
 * the redirect's production entry (and the worker's, for the pipeline) as `npm start` runs them
 * (runtime profile and priority, a session each), and the bare `node:http` server for the floor.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppProcess, configEnv, createTestEnv, ensureTemplateDatabase, PrivateRedis, spawnApp, TestEnv } from '@dl/testing';
import { ReadyChild, serveBare } from './bare-server';
import { BenchLinks, seedRedirectLinks } from './kit';

type Links = BenchLinks & { rows: Array<Record<string, unknown>> };
export type EdgeBench = Links & { env: TestEnv; redirect: AppProcess; worker: AppProcess | null; bare: ReadyChild; redisPid: number; stop(): Promise<void> };

/** `beforeApps` seeds more rows (copies of `rows` on a domain, with controls) before the apps start. */
export async function startEdgeBench(o: { links: number; worker?: boolean; config?: Record<string, string>; beforeApps?: (env: TestEnv, links: Links) => Promise<void> }): Promise<EdgeBench> {
  await ensureTemplateDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'dl-bench-edge-'));
  const redis = await PrivateRedis.create(dir, { appendonly: false });
  const env = await createTestEnv({ REDIS_URL: redis.url, CLICK_FALLBACK_DIR: join(dir, 'fallback'), LOG_LEVEL: 'warn', ...o.config });
  const apps: AppProcess[] = [];
  let bare: ReadyChild | undefined;
  const stop = async () => {
    for (const a of apps.reverse()) await a.stop('SIGTERM').catch(() => undefined);
    await bare?.stop();
    await env.teardown().catch(() => undefined);
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const links = await seedRedirectLinks(env, o.links);
    await o.beforeApps?.(env, links);
    // DL_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=<dir>`) goes to the apps.
    const appEnv = { ...configEnv(env.config), ...(process.env.DL_NODE_ARGS ? { DL_NODE_ARGS: process.env.DL_NODE_ARGS } : {}) };
    const redirect = await spawnApp('redirect', appEnv, undefined, { production: true });
    apps.push(redirect);
    const worker = o.worker ? await spawnApp('worker', appEnv, undefined, { production: true }) : null;
    if (worker) apps.push(worker);
    bare = await serveBare(new Map(links.links.map((l) => [l.shortCode, l.iosUrl])));
    return { env, ...links, redirect, worker, bare, redisPid: redis.pid!, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Clicks the redirect has queued so far (its `clicks_captured_total`), once two reads 250 ms apart agree. */
export async function capturedClicks(redirectUrl: string): Promise<number> {
  const read = async () =>
    (await (await fetch(`${redirectUrl}/metrics`)).text())
      .split('\n')
      .filter((line) => line.startsWith('clicks_captured_total'))
      .reduce((n, line) => n + Number(line.split(' ').pop()), 0);
  let last = await read();
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const now = await read();
    if (now === last) return now;
    last = now;
  }
}
