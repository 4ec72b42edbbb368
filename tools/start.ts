/**
 * `npm start`: the whole service on one machine. Applies migrations (creating the
 * database if needed), makes sure a demo organization and API key exist and prints
 * them, then runs api, redirect, ingest and worker in this process. Production runs
 * each app on its own (`node tools/scripts/run.js apps/<app>/src/main.ts`).
 *
 * Defaults for a laptop: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/deeplink,
 * REDIS_URL=redis://127.0.0.1:6379, a development JWT secret kept in var/.
 * APPS=api,redirect limits which apps start.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, loadConfigOrExit } from '@dl/platform/config';
import { createApiApp } from '@dl/apps/api';
import { createIngestApp } from '@dl/apps/ingest';
import { createRedirectApp } from '@dl/apps/redirect';
import { createWorkerApp } from '@dl/apps/worker';
import { migrateDeploy } from '@dl/tools/db';
import { ensureDemo } from './cli/demo';

const root = join(__dirname, '..');

function devJwtSecret(): string {
  const file = join(root, 'var', 'dev-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(join(root, 'var'), { recursive: true });
  const secret = randomBytes(48).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const APPS: Record<string, [(c: AppConfig) => Promise<NestFastifyApplication>, (c: AppConfig) => number]> = {
  api: [createApiApp, (c) => c.API_PORT],
  redirect: [createRedirectApp, (c) => c.REDIRECT_PORT],
  ingest: [createIngestApp, (c) => c.INGEST_PORT],
  worker: [createWorkerApp, (c) => c.WORKER_PORT],
};

async function main(): Promise<void> {
  const env = { ...process.env };
  env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/deeplink';
  if (env.NODE_ENV !== 'production') env.JWT_SECRET ??= devJwtSecret();
  const config = loadConfigOrExit('start', env);

  const applied = await migrateDeploy(config.DATABASE_URL, { log: (line) => console.error(`[migrate] ${line}`) });
  console.error(`[migrate] ${applied.length} migration(s) applied`);

  const demo = await ensureDemo(config);
  console.log(JSON.stringify({ demo }, null, 2));

  const wanted = (env.APPS ?? Object.keys(APPS).join(',')).split(',').map((s) => s.trim());
  const started: NestFastifyApplication[] = [];
  for (const name of wanted) {
    const entry = APPS[name];
    if (!entry) {
      console.error(`Unknown app "${name}" in APPS (known: ${Object.keys(APPS).join(', ')})`);
      process.exit(1);
    }
    const [create, port] = entry;
    const app = await create(config);
    await app.listen(port(config), config.HOST);
    started.push(app);
    console.error(`[${name}] listening on http://${config.HOST}:${port(config)}`);
  }
  const stop = async () => {
    await Promise.allSettled(started.map((a) => a.close()));
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
