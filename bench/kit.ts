/**
 * What the benches share: the measuring kit (./measure, re-exported), how a bench runs, its
 * own api, and the links and clicks the redirect, analytics and worker benches run on.
 */
import { Logger, Module, Type } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { clickBatchJobId, ClickCapturedJob, packClickBatch } from '@dl/platform/click-codec';
import { ApiModule, createApiApp } from '@dl/apps/api';
import type { AppConfig } from '@dl/platform/config';
import { createHttpApp, HttpAppOptions } from '@dl/platform/http';
import { migrateDeploy, PrismaService, Tier } from '@dl/platform/db';
import { MONTH_ROLLUP_PREFIX, MONTHLY_DIMENSIONS } from '@dl/clicks';
import { Client } from 'pg';
import { adminUrl, AppProcess, ClickFixtures, configEnv, createTestEnv, databaseUrl, ensureTemplateDatabase, flushPrefix, KNOWN_IPS, rawClick, RunningApp, SeededOrganization, seedOrganization, spawnApp, startApp, templateName, testConfig, TestEnv, USER_AGENTS } from '@dl/testing';
import { cpuSeconds, databaseCpuSeconds, flag, round, sleep, wrk } from './measure';

export * from './measure';

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

/**
 * A bench whose api has extra routes (`controller`): the api module with them in this process (its
 * CPU is this process's), on a database with one UNLIMITED organization (`config` added to the test
 * config), then `main`; `api.close()` drains it (`main` may call it first).
 */
export function runApiBench(
  controller: Type<unknown>,
  httpOptions: HttpAppOptions,
  config: Record<string, string>,
  main: (bench: { env: TestEnv; org: SeededOrganization; api: RunningApp & { pid: number } }) => Promise<void>,
): void {
  runBench(async () => {
    Logger.overrideLogger(false);
    await ensureTemplateDatabase();
    const env = await createTestEnv({ LOG_LEVEL: 'silent', ...config });
    const org = await seedOrganization(env, { tier: Tier.UNLIMITED, name: 'Bench' });
    @Module({ imports: [ApiModule.forRoot(env.config)], controllers: [controller] })
    class BenchModule {}
    const running = await startApp((c) => createHttpApp(BenchModule, c, 'api', httpOptions), env.config);
    let closed: Promise<void> | undefined;
    const api = { ...running, pid: process.pid, close: () => (closed ??= running.close()) };
    try {
      await main({ env, org, api });
    } finally {
      await api.close();
      await env.teardown();
    }
  });
}

/** The redirect benches' visitor: an iPhone, so platform routing applies. */
export const VISIT_HEADERS = { 'user-agent': USER_AGENTS.iPhone, 'accept-language': 'en-US,en;q=0.9' };

/**
 * Runs `main` on a database the bench keeps between runs (`name`, cloned from the migrated template;
 * migrations added since are applied), so only the first run pays for seeding a large data set;
 * `--fresh` rebuilds it. `overrides` go into its test config; its Redis keys are removed at the end.
 */
export function runKeptBench(name: string, overrides: Record<string, string>, main: (config: AppConfig, prisma: PrismaService) => Promise<void>): void {
  runBench(async () => {
    Logger.overrideLogger(false);
    await ensureTemplateDatabase();
    const admin = new Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      if (flag('fresh')) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      if (!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount) await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName()}"`);
    } finally {
      await admin.end();
    }
    await migrateDeploy(databaseUrl(name));
    const config = testConfig(databaseUrl(name), overrides);
    const prisma = new PrismaService(config);
    try {
      await main(config, prisma);
    } finally {
      await prisma.$disconnect();
      await flushPrefix(config.REDIS_URL, config.REDIS_PREFIX, config.REDIS_CLUSTER_NODES);
    }
  });
}

/** `VACUUM ANALYZE` of each table, after seeding. */
export async function vacuumAnalyze(prisma: PrismaService, tables: string[]): Promise<void> {
  for (const table of tables) await prisma.$executeRawUnsafe(`VACUUM ANALYZE ${table}`);
}

/** The month rows of the summary dimensions, from the day rollups, as the worker keeps them. */
export const monthRollups = (prisma: PrismaService) => prisma.$executeRaw`
  INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
  SELECT organization_id, link_id, date_trunc('month', day)::date, ${MONTH_ROLLUP_PREFIX} || dimension, value, sum(clicks)
  FROM click_rollups WHERE dimension = ANY(${[...MONTHLY_DIMENSIONS]}::text[]) GROUP BY 1, 2, 3, 4, 5`;

/** The cities of the analytics benches' clicks (country, region, city, time zone), as four columns for `unnest`. */
const CITIES = [
  ['US', 'California', 'Los Angeles', 'America/Los_Angeles'], ['US', 'New York', 'New York', 'America/New_York'], ['GB', 'England', 'London', 'Europe/London'], ['DE', 'Berlin', 'Berlin', 'Europe/Berlin'],
  ['FR', 'Île-de-France', 'Paris', 'Europe/Paris'], ['BR', 'São Paulo', 'São Paulo', 'America/Sao_Paulo'], ['IN', 'Maharashtra', 'Mumbai', 'Asia/Kolkata'], ['JP', 'Tokyo', 'Tokyo', 'Asia/Tokyo'],
  ['CA', 'Ontario', 'Toronto', 'America/Toronto'], ['AU', 'New South Wales', 'Sydney', 'Australia/Sydney'], ['ES', 'Madrid', 'Madrid', 'Europe/Madrid'], ['IT', 'Lombardy', 'Milan', 'Europe/Rome'],
  ['NL', 'North Holland', 'Amsterdam', 'Europe/Amsterdam'], ['SE', 'Stockholm', 'Stockholm', 'Europe/Stockholm'], ['MX', 'Mexico City', 'Mexico City', 'America/Mexico_City'], ['US', 'Texas', 'Austin', 'America/Chicago'],
  ['GB', 'Scotland', 'Edinburgh', 'Europe/London'], ['DE', 'Bavaria', 'Munich', 'Europe/Berlin'], ['NG', 'Lagos', 'Lagos', 'Africa/Lagos'], ['KR', 'Seoul', 'Seoul', 'Asia/Seoul'],
];
export const cityColumns = () => [0, 1, 2, 3].map((k) => CITIES.map((c) => c[k]));

/** The api's production entry in a child process on its own database with one UNLIMITED organization (owner API key, `default` template). */
export interface ApiBench {
  env: TestEnv;
  org: SeededOrganization;
  api: AppProcess;
  url: string;
  auth: { authorization: string; 'content-type': string };
  /** CPU seconds so far of the api process and of the bench database's Postgres backends. */
  cpu(): Promise<{ api: number; db: number }>;
  close(): Promise<void>;
}

export async function startApiBench(): Promise<ApiBench> {
  await ensureTemplateDatabase();
  const env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'silent' });
  const org = await seedOrganization(env, { tier: Tier.UNLIMITED, name: 'Bench' });
  // DL_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=<dir>`) goes to the api.
  const api = await spawnApp('api', { ...configEnv(env.config), ...(process.env.DL_NODE_ARGS ? { DL_NODE_ARGS: process.env.DL_NODE_ARGS } : {}) });
  const auth = { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json' };
  const cpu = async () => ({ api: cpuSeconds(api.proc.pid!), db: await databaseCpuSeconds(env.prisma) });
  return { env, org, api, url: api.url, auth, cpu, close: () => api.stop().then(() => env.teardown()) };
}

/** Runs `work` and reads the CPU ms per `count()` of the api and of Postgres meanwhile. */
export async function cpuMsPer<T>(bench: ApiBench, work: () => Promise<T>, count: (result: T) => number | Promise<number>): Promise<{ result: T; cpuMs: { api: number; db: number } }> {
  const before = await bench.cpu();
  const result = await work();
  const after = await bench.cpu();
  const n = Math.max(1, await count(result));
  return { result, cpuMs: { api: round(((after.api - before.api) * 1000) / n, 2), db: round(((after.db - before.db) * 1000) / n, 2) } };
}

export interface BenchLinks {
  organizationId: string;
  links: Array<{ shortCode: string; iosUrl: string; originalUrl: string }>;
  /** `/<code>?ref=bench` of every link. */
  paths: string[];
}

/** One organization with `count` links (`<prefix>0000`…), each with an App Store URL and UTM. */
export async function seedRedirectLinks(env: TestEnv, count: number, prefix = 'bench'): Promise<BenchLinks & { rows: Array<Record<string, unknown>> }> {
  const org = await env.prisma.organization.create({ data: { name: 'Bench', slug: `bench-${Date.now()}` } });
  const user = await env.prisma.user.create({ data: { email: `bench-${Date.now()}@example.com`, name: 'B', passwordHash: 'x' } });
  const template = await env.prisma.template.create({ data: { organizationId: org.id, name: 'T', slug: 't' } });
  const rows = Array.from({ length: count }, (_, i) => ({
    organizationId: org.id,
    userId: user.id,
    templateId: template.id,
    shortCode: `${prefix}${i.toString().padStart(4, '0')}`,
    originalUrl: `https://example.com/landing/${i}`,
    iosUrl: `https://apps.apple.com/app/id${100000 + i}`,
    utmParameters: { source: 'bench', medium: 'loopback' },
  }));
  await env.prisma.link.createMany({ data: rows });
  return { organizationId: org.id, links: rows, paths: rows.map((l) => `/${l.shortCode}?ref=bench`), rows };
}

/** 60 links spread over a PRO, a FREE and a BUSINESS organization: the click benches' traffic. */
export async function benchLinks(env: TestEnv): Promise<Array<{ id: string; organizationId: string }>> {
  const fx = new ClickFixtures(env.prisma);
  const orgs = await Promise.all([fx.organization(Tier.PRO), fx.organization(Tier.FREE), fx.organization(Tier.BUSINESS)]);
  const links: Array<{ id: string; organizationId: string }> = [];
  for (let i = 0; i < 60; i++) links.push({ id: (await fx.link(orgs[i % 3].id)).id, organizationId: orgs[i % 3].id });
  return links;
}

/** The analytics benches' tenant: a BUSINESS organization on a test database without rate limits, its API key and `count` titled links. */
type AnalyticsTenant = { env: TestEnv; fx: ClickFixtures; org: { id: string }; key: string; links: string[] };

/** Runs `main` on a new analytics bench tenant with `count` links (Nest's logger off), its database removed at the end. */
export function runAnalyticsBench(count: number, main: (tenant: AnalyticsTenant) => Promise<void>): void {
  runBench(async () => {
    Logger.overrideLogger(false);
    await ensureTemplateDatabase();
    const env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    try {
      const fx = new ClickFixtures(env.prisma);
      const org = await fx.organization(Tier.BUSINESS);
      const { key } = await fx.apiKey(org.id);
      const links: string[] = [];
      for (let i = 0; i < count; i++) links.push((await fx.link(org.id, { title: `Link ${i}` })).id);
      await main({ env, fx, org, key, links });
    } finally {
      await env.teardown();
    }
  });
}

/**
 * The api in this process on `config`'s database, each named GET (path, connections: 1 by default)
 * warmed for a second (four before the first: V8 is still optimizing the api), then driven by wrk
 * with `key` for `seconds`: requests a second, non-2xx, latency, and the CPU ms per request of the
 * api (this process) and of the Postgres backends on that database.
 */
export async function wrkApiPaths(
  config: AppConfig,
  prisma: PrismaService,
  key: string,
  paths: Array<[name: string, path: string, connections?: number]>,
  seconds: number,
): Promise<Record<string, unknown>[]> {
  const api = await startApp(createApiApp, config);
  const headers = { authorization: `Bearer ${key}` };
  const results: Record<string, unknown>[] = [];
  try {
    for (const [i, [name, path, connections = 1]] of paths.entries()) {
      for (const until = performance.now() + (i === 0 ? 4000 : 1000); performance.now() < until; ) {
        const warm = await fetch(`${api.url}${path}`, { headers });
        if (!warm.ok) throw new Error(`${path}: ${warm.status} ${await warm.text()}`);
        await warm.arrayBuffer();
      }
      const [apiCpu, pgCpu] = [cpuSeconds(process.pid), await databaseCpuSeconds(prisma)];
      const r = await wrk({ url: `${api.url}${path}`, headers, connections, seconds });
      const perRequest = (used: number) => round((used * 1000) / Math.max(1, r.requests), 2);
      const cpuMsPerRequest = { api: perRequest(cpuSeconds(process.pid) - apiCpu), postgres: perRequest((await databaseCpuSeconds(prisma)) - pgCpu) };
      results.push({ name, requestsPerSecond: r.requestsPerSecond, notOk: r.notOk, ...r.latencyMs, cpuMsPerRequest });
    }
  } finally {
    await api.close();
  }
  return results;
}

/**
 * Click `i` of varied live traffic over `links`: real browsers (user agent versions varied so the
 * parser cache is not trivial), 2% bots, IPs GeoLite2 resolves and others, referrers, UTM on one
 * in five, skewed over links (a few hot ones), clicked in the last ten minutes.
 */
export function benchClick(links: Array<{ id: string; organizationId: string }>, now = Date.now()): (i: number) => ClickCapturedJob {
  const humans = [USER_AGENTS.iPhone, USER_AGENTS.androidPhone, USER_AGENTS.iPad, USER_AGENTS.windowsChrome, USER_AGENTS.macSafari, USER_AGENTS.linuxFirefox];
  const known = Object.values(KNOWN_IPS);
  const referrers = [null, null, 'https://www.google.com/', 'https://t.co/abc', 'https://www.instagram.com/'];
  return (i) =>
    rawClick(links[Math.floor(links.length * ((i * 0.6180339887) % 1) ** 2)], {
      clickedAt: new Date(now - (i % 600) * 1000).toISOString(),
      ip: i % 4 === 0 ? known[i % known.length] : `${1 + (i % 223)}.${(i >> 8) % 256}.${(i >> 3) % 256}.${i % 256}`,
      userAgent: i % 50 === 0 ? USER_AGENTS.googlebot : humans[i % humans.length].replace(/(\d+)\.0\.0\.0/, `$1.0.${i % 400}.0`),
      referrer: referrers[i % referrers.length],
      acceptLanguage: i % 3 ? 'en-US,en;q=0.9' : 'de-DE,de;q=0.8',
      query: i % 5 === 0 ? { utm_source: 'newsletter', utm_campaign: `c${i % 10}` } : {},
    });
}

/** Queues clicks `offset`…`offset + total - 1` as the edge does: `click.batch` jobs of `perJob`, job ids derived from their clicks. */
export async function queueClickBatches(queue: Queue, click: (i: number) => ClickCapturedJob, total: number, perJob: number, offset = 0): Promise<void> {
  for (let start = 0; start < total; start += 10 * perJob) {
    const jobs = [];
    for (let i = start; i < Math.min(start + 10 * perJob, total); i += perJob) {
      const clicks = Array.from({ length: Math.min(perJob, total - i) }, (_, k) => click(offset + i + k));
      jobs.push({ name: 'click.batch', data: packClickBatch(clicks), opts: { jobId: clickBatchJobId(clicks) } });
    }
    await queue.addBulk(jobs);
  }
}

/** Stored clicks of the bench's database. */
export async function storedClicks(env: TestEnv): Promise<number> {
  return (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks`)[0].n;
}

/** Waits until `expected` clicks are stored; the seconds it took. Fails on more (a duplicate) or after `deadlineMs`. */
export async function drained(count: () => Promise<number>, expected: number, deadlineMs = 180_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const n = await count();
    if (n === expected) return (Date.now() - started) / 1000;
    if (n > expected) throw new Error(`stored ${n} clicks for ${expected}: duplicates`);
    if (Date.now() - started > deadlineMs) throw new Error(`only ${n} of ${expected} clicks stored after ${deadlineMs} ms`);
    await sleep(50);
  }
}

/**
 * Samples `count()` every 250 ms until it reaches `total` or `maxSeconds` pass. The steady rate is
 * taken between 10% and 90% of what was stored, leaving boot and tail out.
 */
export async function watchDrain(count: () => Promise<number>, total: number, maxSeconds: number): Promise<{ stored: number; seconds: number; steadyPerSecond: number | null }> {
  const t = Date.now();
  const samples: Array<[number, number]> = [];
  let stored = 0;
  while (stored < total && Date.now() - t < maxSeconds * 1000) {
    await sleep(250);
    samples.push([Date.now() - t, (stored = await count())]);
  }
  const at = (frac: number) => samples.find(([, n]) => n >= frac * stored) ?? samples[samples.length - 1];
  const [[t10, n10], [t90, n90]] = [at(0.1), at(0.9)];
  return { stored, seconds: (Date.now() - t) / 1000, steadyPerSecond: t90 > t10 ? Math.round((n90 - n10) / ((t90 - t10) / 1000)) : null };
}
