import { Queue } from 'bullmq';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, closeAll, createTestEnv, rawClick, RunningApp, startApp, TestEnv, waitForValue } from '@dl/testing';
import { createWorkerApp } from '../app';

const waitFor = <T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number) => waitForValue(probe, ok, timeoutMs, 20);

/**
 * Closing the worker (what SIGTERM does) in the middle of a drain: it stops taking jobs, those
 * in flight finish (the click batcher and the pools close only after them), no job fails with
 * "Batcher is closed" or a closed pool, none spends an attempt; a second worker stores the rest,
 * every click exactly once.
 */
describe('worker: graceful shutdown mid-drain', () => {
  let env: TestEnv, queue: Queue;

  beforeAll(async () => {
    env = await createTestEnv();
    queue = new Queue(Queues.clicks, bullOptions(env.config));
  });

  afterAll(() => closeAll(queue, env));

  it('fails no job, spends no attempt and loses nothing', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const link = await fx.link(org.id);
    const batches = Array.from({ length: 60 }, () => Array.from({ length: 100 }, () => rawClick({ id: link.id, organizationId: org.id })));
    await queue.addBulk(batches.map((clicks) => ({ name: 'click.batch', data: { clicks }, opts: { jobId: `b-${clicks[0].id}` } })));
    const stored = async () =>
      (await env.prisma.$queryRaw<Array<{ n: number; d: number }>>`
        SELECT count(*)::int AS n, count(DISTINCT id)::int AS d FROM clicks WHERE link_id = ${link.id}::uuid`)[0];

    const first: RunningApp = await startApp(createWorkerApp, env.config);
    await waitFor(stored, (s) => s.n > 0, 30_000);
    await first.close();
    const afterFirst = await queue.getJobCounts('completed', 'failed', 'active', 'wait', 'delayed');
    expect(afterFirst.failed).toBe(0);
    expect(afterFirst.active).toBe(0);
    const left = await queue.getJobs(['wait', 'delayed'], 0, -1);
    expect(left.every((j) => j.attemptsMade === 0)).toBe(true);

    const second = await startApp(createWorkerApp, env.config);
    try {
      await waitFor(stored, (s) => s.n >= 6000, 60_000);
      expect(await stored()).toEqual({ n: 6000, d: 6000 });
      expect(await queue.getJobCounts('failed')).toEqual({ failed: 0 });
    } finally {
      await second.close();
    }
  }, 120_000);
});
