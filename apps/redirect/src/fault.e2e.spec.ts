import { Agent, get as httpGet } from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { createTestEnv, RunningApp, startApp, TestEnv } from '@dl/testing';
import { createRedirectApp } from './app';
import { clicksQueue, seedLink, seedOrganization, UA } from './test/redirect.fixtures';
import { freePort, RedisChild } from './test/redis-child';

const LOAD_MS = 15_000;
const KILL_AT_MS = 2_000;
const OUTAGE_MS = 10_000;
const CONCURRENCY = 8;

/**
 * Redis (a private child process) is SIGKILLed for 10 s during a steady redirect load:
 * no 5xx, and afterwards the click ids in the queue are exactly the ones the 302s carried
 * (the organization has a pixel site, so every Location names its click id): 0 lost, 0 extra.
 */
describe('redirect edge: Redis outage under load', () => {
  let env: TestEnv;
  let server: RunningApp;
  let redis: RedisChild;
  let queue: Queue;
  const dirs: string[] = [];

  beforeAll(async () => {
    const redisDir = mkdtempSync(join(tmpdir(), 'dl-redis-'));
    const fallbackDir = mkdtempSync(join(tmpdir(), 'dl-fallback-'));
    dirs.push(redisDir, fallbackDir);
    redis = new RedisChild(await freePort(), redisDir);
    await redis.start();
    env = await createTestEnv({ REDIS_URL: redis.url, CLICK_FALLBACK_DIR: fallbackDir });
    server = await startApp(createRedirectApp, env.config);
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
    const org = await seedOrganization(env.prisma);
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
    while (Date.now() < until) {
      const counts = await queue.getJobCounts('waiting');
      if (counts.waiting >= served.size && readdirSync(dirs[1]).length === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized']);
    const queued = new Set(jobs.map((j) => j.id!));
    const lost = [...served].filter((id) => !queued.has(id));
    const buckets: Record<number, number> = {};
    for (const id of lost) buckets[Math.floor(servedAt.get(id)! / 1000)] = (buckets[Math.floor(servedAt.get(id)! / 1000)] ?? 0) + 1;
    const extra = [...queued].filter((id) => !served.has(id));
    // (On failure, `lostBySecond` shows when the lost clicks were served.)
    expect({ lost: lost.length, extra: extra.length, lostBySecond: buckets }).toEqual({ lost: 0, extra: 0, lostBySecond: {} });
    expect(readdirSync(dirs[1])).toEqual([]);
    // Job ids are the click ids, and each job carries its own id.
    const sample = await queue.getJob([...served][0]);
    expect(sample?.data).toMatchObject({ id: [...served][0], linkId: link.id });
    process.stdout.write(`fault test: ${served302} redirects, ${outageSeen} fallback file(s) during the outage\n`);
  }, 45_000);
});
