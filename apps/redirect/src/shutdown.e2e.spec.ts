import { Agent, get as httpGet } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { AppProcess, clicksQueue, configEnv, createTestEnv, queuedClickJobs, seedLink, seedRedirectOrg, spawnApp, TestEnv, UA } from '@dl/testing';

const CONCURRENCY = 8;

/**
 * SIGTERM to the redirect's production entry under keep-alive load: every request that reached
 * it is answered (no reset), keep-alive connections are closed after their current answer, the
 * click buffer is flushed (every 302's click id is queued exactly once), and the process exits 0
 * without pool errors.
 */
describe('redirect: graceful shutdown on SIGTERM', () => {
  let env: TestEnv;
  let app: AppProcess;
  let queue: Queue;
  const dir = mkdtempSync(join(tmpdir(), 'dl-fallback-'));

  beforeAll(async () => {
    env = await createTestEnv({ CLICK_FALLBACK_DIR: dir, LOG_LEVEL: 'info' });
    queue = clicksQueue(env.config);
  });

  afterAll(async () => {
    await app?.stop('SIGKILL');
    await queue?.close();
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every request, flushes every click and exits 0', async () => {
    const org = await seedRedirectOrg(env.prisma);
    await env.prisma.pixelSite.create({
      data: { organizationId: org.organizationId, name: 'Site', domain: 'example.com', siteKey: `dlp_${Date.now()}` },
    });
    const link = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/sale' });
    app = await spawnApp('redirect', configEnv(env.config));

    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const served = new Set<string>();
    const statuses = new Map<number, number>();
    const failures = new Map<string, number>();
    let closeHeaders = 0;
    let stopped = false;

    const one = () =>
      new Promise<void>((resolve) => {
        const req = httpGet(`${app.url}/${link.shortCode}`, { agent, headers: { 'user-agent': UA.iphone } }, (res) => {
          statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
          if (res.headers.connection === 'close') closeHeaders++;
          const location = res.headers.location;
          if (res.statusCode === 302 && location) served.add(new URL(location).searchParams.get('dl_click')!);
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          const code = err.code ?? err.message;
          failures.set(code, (failures.get(code) ?? 0) + 1);
          // Refused: the listener is closed (not accepted, nothing to answer).
          if (code === 'ECONNREFUSED') stopped = true;
          resolve();
        });
      });
    const load = Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (!stopped) await one();
      }),
    );
    await new Promise((r) => setTimeout(r, 1_500));
    const exit = app.stop('SIGTERM');
    await load;
    expect(await exit).toBe(0);
    agent.destroy();

    // Every request the app took was answered with a redirect; after SIGTERM only refusals.
    expect([...statuses.keys()]).toEqual([302]);
    expect(served.size).toBe(statuses.get(302));
    expect(served.size).toBeGreaterThan(0);
    expect([...failures.keys()].filter((code) => code !== 'ECONNREFUSED')).toEqual([]);
    expect(closeHeaders).toBeGreaterThan(0);
    // The buffer was flushed before the queue closed: every served click is queued, once.
    const carried = (await queuedClickJobs(queue)).flatMap((j) => j.clicks.map((c) => c.id));
    const queued = new Set(carried);
    expect({ lost: [...served].filter((id) => !queued.has(id)).length, extra: [...queued].filter((id) => !served.has(id)).length }).toEqual({ lost: 0, extra: 0 });
    expect(app.output()).not.toMatch(/Cannot use a pool after calling end|Batcher is closed|Unhandled error/);
    expect(app.output()).toMatch(/"msg":"shut down"/);
  }, 120_000);
});
