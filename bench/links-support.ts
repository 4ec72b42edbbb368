/**
 * Shared by the links benches: a database with one UNLIMITED organization (owner API key,
 * `default` template) and the api's production entry in a child process.
 */
import { Tier } from '@dl/platform/db';
import { AppProcess, configEnv, createTestEnv, ensureTemplateDatabase, SeededOrganization, seedOrganization, spawnApp, TestEnv } from '@dl/testing';
import { cpuSecondsOf, databaseCpuSeconds, memoryMb, round } from './kit';

export interface LinksBench {
  env: TestEnv;
  org: SeededOrganization;
  api: AppProcess;
  url: string;
  auth: { authorization: string; 'content-type': string };
  rssMb(): number;
  /** CPU seconds so far of the api process and of the bench database's Postgres backends. */
  cpu(): Promise<{ api: number; db: number }>;
  close(): Promise<void>;
}

export async function startLinksBench(): Promise<LinksBench> {
  await ensureTemplateDatabase();
  const env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'silent' });
  const org = await seedOrganization(env, { tier: Tier.UNLIMITED, name: 'Bench' });
  const api = await spawnApp('api', configEnv(env.config));
  return {
    env,
    org,
    api,
    url: api.url,
    auth: { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json' },
    rssMb: () => memoryMb(api.proc.pid!).rss,
    cpu: async () => ({ api: cpuSecondsOf([api.proc.pid!]), db: await databaseCpuSeconds(env) }),
    close: async () => {
      await api.stop();
      await env.teardown();
    },
  };
}

/** CPU ms per request between two cpu() readings. */
export function cpuMsPer(before: { api: number; db: number }, after: { api: number; db: number }, requests: number) {
  const per = (a: number, b: number) => round(((b - a) * 1000) / Math.max(1, requests), 2);
  return { api: per(before.api, after.api), db: per(before.db, after.db) };
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
