import { Queue } from 'bullmq';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { ClickFixtures, closeAll, createPrivatePostgresEnv, PrivatePostgresEnv, rawClick, RunningApp, startApp } from '@dl/testing';
import { createWorkerApp } from '../app';
import { DependencyGate } from './dependency-gate';

/** The former budget: 5 attempts with 1-2-4-8 s backoff, ~15 s, then the failed set for good. */
const OLD_ATTEMPT_BUDGET_MS = 15_000;

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined && ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Postgres (a private cluster) stopped with `-m fast` (57P01 to every session, mid-transaction
 * for the click batches in flight) while clicks keep arriving, and kept down past the old
 * attempt budget: the worker process survives, pauses, hands back what failed without spending
 * attempts, and once Postgres is back stores every click exactly once; no job fails.
 */
describe('worker: Postgres outage', () => {
  let env: PrivatePostgresEnv, worker: RunningApp, queue: Queue;

  beforeAll(async () => {
    env = await createPrivatePostgresEnv();
    queue = new Queue(Queues.clicks, bullOptions(env.config));
    worker = await startApp(createWorkerApp, env.config);
  }, 60_000);

  afterAll(() => closeAll(worker, queue, env));

  it('loses nothing, stores nothing twice, fails no job and spends no attempt', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const link = await fx.link(org.id);
    const sent: ClickCapturedJob[] = [];
    let producing = true;
    const producer = (async () => {
      while (producing) {
        const batch = Array.from({ length: 50 }, () => rawClick({ id: link.id, organizationId: org.id }));
        sent.push(...batch);
        await queue.add('click.batch', { clicks: batch }, { jobId: `b-${batch[0].id}` });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const stored = async () =>
      (await env.prisma.$queryRaw<Array<{ n: number; d: number }>>`
        SELECT count(*)::int AS n, count(DISTINCT id)::int AS d FROM clicks WHERE link_id = ${link.id}::uuid`)[0];

    await waitFor(stored, (s) => s.n > 0, 20_000);
    await env.pg.stop('fast');
    const gate = worker.app.get(DependencyGate);
    await waitFor(async () => gate.isPaused, (p) => p, 10_000);
    await new Promise((r) => setTimeout(r, OLD_ATTEMPT_BUDGET_MS + 3_000));
    expect(await queue.getJobCounts('failed')).toEqual({ failed: 0 });
    expect(gate.isPaused).toBe(true);

    await env.pg.start();
    await new Promise((r) => setTimeout(r, 1_000));
    producing = false;
    await producer;
    const counts = await waitFor(stored, (s) => s.n >= sent.length, 90_000);
    expect(counts).toEqual({ n: sent.length, d: sent.length });
    expect(gate.isPaused).toBe(false);
    await waitFor(() => queue.getJobCounts('completed', 'failed', 'active', 'wait', 'delayed'), (c) => c.active + c.wait + c.delayed === 0, 30_000);
    expect(await queue.getJobCounts('failed')).toEqual({ failed: 0 });
    const [{ total }] = await env.prisma.$queryRaw<Array<{ total: number }>>`
      SELECT coalesce(sum(clicks), 0)::int AS total FROM click_rollups WHERE link_id = ${link.id}::uuid AND dimension = 'total'`;
    expect(total).toBe(sent.length);
    // Completion counts one attempt; hand-backs during the outage counted none.
    const jobs = await queue.getJobs(['completed'], 0, -1);
    expect(jobs.length).toBeGreaterThan(0);
    expect(Math.max(...jobs.map((j) => j.attemptsMade))).toBe(1);
  }, 180_000);
});
