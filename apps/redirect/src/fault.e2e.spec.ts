import { Agent, get as httpGet } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import request from 'supertest';
import { clickBatchJobId, unpackClickBatch } from '@dl/platform/click-codec';
import { appEnv, clicksQueue, createTestEnv, freePort, queuedClickJobs, RedisChild, RunningApp, seedLink, seedRedirectOrg, startApp, TestEnv, UA } from '@dl/testing';
import { createRedirectApp } from './app';

const LOAD_MS = 15_000;
const KILL_AT_MS = 2_000;
const OUTAGE_MS = 10_000;
const CONCURRENCY = 8;

/**
 * Redis (a private child process) is SIGKILLed for 10 s during a steady redirect load:
 * no 5xx, and afterwards the click ids in the queue's `click.batch` jobs are exactly the ones
 * the 302s carried (the organization has a pixel site, so every Location names its click id):
 * 0 lost, 0 extra. (A click carried by two batches, e.g. an add that timed out but landed,
 * is stored once by the consumer: see apps/worker/src/clicks/clicks.e2e.spec.ts.)
 */
describe('redirect edge: Redis outage under load', () => {
  let env: TestEnv, server: RunningApp, redis: RedisChild, queue: Queue;
  const dirs: string[] = [];

  beforeAll(async () => {
    const redisDir = mkdtempSync(join(tmpdir(), 'dl-redis-'));
    const fallbackDir = mkdtempSync(join(tmpdir(), 'dl-fallback-'));
    dirs.push(redisDir, fallbackDir);
    redis = new RedisChild(await freePort(), redisDir);
    await redis.start();
    ({ env, server } = await appEnv(createRedirectApp, { REDIS_URL: redis.url, CLICK_FALLBACK_DIR: fallbackDir }));
    queue = clicksQueue(env.config);
  });

  afterAll(async () => {
    await queue?.close();
    await server?.close();
    await env?.teardown();
    await redis?.kill();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('serves every redirect and loses or duplicates no click', async () => {
    const org = await seedRedirectOrg(env.prisma);
    await env.prisma.pixelSite.create({
      data: { organizationId: org.organizationId, name: 'Site', domain: 'example.com', siteKey: `dlp_${Date.now()}` },
    });
    const link = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/sale' });

    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const served = new Set<string>();
    const servedAt = new Map<string, number>();
    const statuses = new Map<number, number>();
    let errors = 0;
    const one = () =>
      new Promise<void>((resolve) => {
        const req = httpGet(`${server.url}/${link.shortCode}`, { agent, headers: { 'user-agent': UA.iphone } }, (res) => {
          statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
          const location = res.headers.location;
          if (res.statusCode === 302 && location) {
            const id = new URL(location).searchParams.get('dl_click')!;
            served.add(id);
            servedAt.set(id, Date.now() - start);
          }
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', () => {
          errors++;
          resolve();
        });
      });

    const start = Date.now();
    let outageSeen = 0;
    const fault = (async () => {
      await new Promise((r) => setTimeout(r, KILL_AT_MS));
      await redis.kill();
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      outageSeen = readdirSync(dirs[1]).length;
      await redis.start();
    })();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (Date.now() - start < LOAD_MS) {
          await one();
          // A steady load, not a flood: the machine is shared.
          await new Promise((r) => setTimeout(r, 2));
        }
      }),
    );
    await fault;
    agent.destroy();

    // Every answer was a redirect; the outage really pushed clicks to the fallback files.
    expect(errors).toBe(0);
    expect([...statuses.keys()]).toEqual([302]);
    expect(outageSeen).toBeGreaterThan(0);
    const served302 = statuses.get(302)!;
    expect(served.size).toBe(served302);

    // After recovery the fallback is replayed: the queue holds exactly the served click ids.
    const until = Date.now() + 12_000;
    let jobs = await queuedClickJobs(queue);
    while (Date.now() < until) {
      jobs = await queuedClickJobs(queue);
      const ids = new Set(jobs.flatMap((j) => j.clicks.map((c) => c.id)));
      if (ids.size >= served.size && readdirSync(dirs[1]).length === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const carried = jobs.flatMap((j) => j.clicks.map((c) => c.id));
    const queued = new Set(carried);
    const lost = [...served].filter((id) => !queued.has(id));
    const buckets: Record<number, number> = {};
    for (const id of lost) buckets[Math.floor(servedAt.get(id)! / 1000)] = (buckets[Math.floor(servedAt.get(id)! / 1000)] ?? 0) + 1;
    const extra = [...queued].filter((id) => !served.has(id));
    // (On failure, `lostBySecond` shows when the lost clicks were served.)
    expect({ lost: lost.length, extra: extra.length, lostBySecond: buckets }).toEqual({ lost: 0, extra: 0, lostBySecond: {} });
    expect(readdirSync(dirs[1])).toEqual([]);
    // Every job is a batch of this link's clicks, its id derived from the clicks it carries.
    expect(new Set(jobs.map((j) => j.name))).toEqual(new Set(['click.batch']));
    for (const job of jobs) {
      expect(job.id).toBe(clickBatchJobId(job.clicks));
      expect(job.clicks.every((c) => c.linkId === link.id)).toBe(true);
    }
    process.stdout.write(
      `fault test: ${served302} redirects in ${jobs.length} batch jobs (${carried.length - queued.size} click(s) carried twice), ${outageSeen} fallback file(s) during the outage\n`,
    );
  }, 45_000);
});

describe('redirect edge: fallback left by a previous run', () => {
  let env: TestEnv, server: RunningApp, queue: Queue, dir: string;

  afterAll(async () => {
    await queue?.close();
    await server?.close();
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is replayed into the queue at start-up, then deleted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'dl-fallback-'));
    const ids = ['0b9c6a57-1f0e-4a43-9d57-6f1f4a9c0001', '0b9c6a57-1f0e-4a43-9d57-6f1f4a9c0002'];
    const lines = ids.map((id) =>
      JSON.stringify({
        id,
        linkId: '5e1f0000-0000-4000-8000-000000000001',
        organizationId: '5e1f0000-0000-4000-8000-000000000002',
        clickedAt: '2026-11-01T10:00:00.000Z',
        ip: '8.8.8.8',
        userAgent: UA.iphone,
        referrer: null,
        acceptLanguage: 'en',
        query: { utm_source: 'x' },
      }),
    );
    writeFileSync(join(dir, 'clicks-1700000000000-deadbeef-0.ndjson'), `${lines.join('\n')}\n`);
    env = await createTestEnv({ CLICK_FALLBACK_DIR: dir });
    queue = clicksQueue(env.config);
    server = await startApp(createRedirectApp, env.config);
    const until = Date.now() + 5000;
    while ((await queue.getJobCounts('waiting')).waiting < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const jobs = await queue.getJobs(['waiting']);
    // One batch job carrying both clicks as written (the null fact left out, as the edge sends it), its id derived from them.
    expect(jobs.map((j) => ({ id: j.id, name: j.name, packed: (j.data as { v?: number }).v }))).toEqual([
      { id: clickBatchJobId(ids.map((id) => ({ id }))), name: 'click.batch', packed: 2 },
    ]);
    const { referrer: _, ...written } = JSON.parse(lines[0]);
    expect(unpackClickBatch(jobs[0].data)).toEqual(ids.map((id) => ({ ...written, id })));
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('redirect edge: Redis unreachable from the start', () => {
  let env: TestEnv, server: RunningApp, dir: string;

  afterAll(async () => {
    await server?.close();
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('boots, redirects from Postgres, and keeps every click in the fallback', async () => {
    dir = mkdtempSync(join(tmpdir(), 'dl-fallback-'));
    env = await createTestEnv({ CLICK_FALLBACK_DIR: dir });
    const org = await seedRedirectOrg(env.prisma);
    const link = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/no-redis' });
    const deadRedis = `redis://127.0.0.1:${await freePort()}`;
    server = await startApp(createRedirectApp, env.withOverrides({ REDIS_URL: deadRedis, CLICK_FALLBACK_DIR: dir }));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(server.url).get(`/${link.shortCode}`).set('User-Agent', UA.windowsChrome).redirects(0);
      statuses.push(res.status);
      expect(res.headers.location).toBe('https://example.com/no-redis');
    }
    expect(statuses).toEqual([302, 302, 302, 302, 302]);
    await request(server.url).get('/Zz9unknown').expect(404);
    // The clicks are durable on disk (fsync'd) within a few milliseconds.
    const until = Date.now() + 3000;
    let lines: string[] = [];
    while (Date.now() < until) {
      lines = readdirSync(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
      if (lines.length >= 5) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(lines.map((l) => (JSON.parse(l) as { linkId: string }).linkId)).toEqual(Array(5).fill(link.id));
    // The counter moves once each batch is fsync'd (the lines are readable a moment before).
    const counters = async () =>
      (await request(server.url).get('/metrics')).text.split('\n').filter((l) => l.startsWith('clicks_'));
    let seen = await counters();
    for (let i = 0; i < 60 && !seen.includes('clicks_fallback_total 5'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await counters();
    }
    expect(seen).toEqual(['clicks_captured_total 0', 'clicks_fallback_total 5']);
  });

  it('/tls/ask still says yes for a serving domain (the new-name budget is not counted without Redis)', async () => {
    await env.prisma.domain.create({
      data: { organizationId: (await env.prisma.organization.findFirstOrThrow()).id, domain: 'go.noredis.test', status: 'verified', verifiedAt: new Date(), verificationToken: '0'.repeat(32) },
    });
    await server.close();
    server = await startApp(createRedirectApp, env.withOverrides({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, CLICK_FALLBACK_DIR: dir }));
    const ask = async (domain: string) => (await request(server.url).get(`/tls/ask?domain=${domain}`)).status;
    expect([await ask('go.noredis.test'), await ask('unknown.noredis.test')]).toEqual([200, 404]);
  });
});
